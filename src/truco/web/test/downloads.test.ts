import { describe, expect, it } from "vitest";
import { download, isHistoryLink } from "../src/downloads";

describe("hand downloads", () => {
  it("knows the server's hand-history links, and only those", () => {
    const o = "http://h:8000";
    expect(isHistoryLink("/api/tables/ab12/hands/3.toml", o)).toBe(true);
    expect(isHistoryLink("http://h:8000/api/tables/ab12/match.toml", o)).toBe(true);
    expect(isHistoryLink("http://evil.example/api/tables/ab12/match.toml", o)).toBe(false);
    expect(isHistoryLink("/api/tables/ab12", o)).toBe(false);
    expect(isHistoryLink("/assets/x.toml", o)).toBe(false);
  });

  it("sends the seat token in an Authorization header and reports a refusal's code", async () => {
    const asked: [string, RequestInit | undefined][] = [];
    const refuse = (async (href: string, init?: RequestInit) => {
      asked.push([href, init]);
      return new Response(JSON.stringify({ code: "bad_token", message: "no" }), { status: 401 });
    }) as typeof fetch;
    expect(await download("/api/tables/t/hands/1.toml", "tok-1", "1.toml", refuse)).toBe("bad_token");
    expect(asked).toEqual([["/api/tables/t/hands/1.toml", { headers: { Authorization: "Bearer tok-1" } }]]);
    expect(await download("/api/tables/t/match.toml", null, "m.toml", refuse)).toBe("bad_token");
    expect(asked[1]?.[1]).toEqual({ headers: {} });
  });
});
