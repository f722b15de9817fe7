/** The web client's modules import one way: no circle among them (a circle hides an order the
 * modules depend on, and breaks when one of them is loaded first). */

import { describe, expect, it } from "vitest";

const files = import.meta.glob<string>("../src/**/*.ts", { query: "?raw", import: "default", eager: true });

/** Each module (its path under src, without ".ts") and the modules it imports. */
function importGraph(sources: Record<string, string>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [path, src] of Object.entries(sources)) {
    const here = path.replace("../src/", "").replace(/\.ts$/, "");
    const dir = here.includes("/") ? here.slice(0, here.lastIndexOf("/") + 1) : "";
    const arrows = new Set<string>();
    for (const m of src.matchAll(/^(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']/gm)) {
      const parts = (dir + m[1]!).split("/");
      const out: string[] = [];
      for (const p of parts) {
        if (p === "..") out.pop();
        else if (p !== ".") out.push(p);
      }
      arrows.add(out.join("/").replace(/\.ts$/, ""));
    }
    graph.set(here, arrows);
  }
  return graph;
}

/** The strongly connected parts of more than one module (Tarjan's algorithm). */
function circles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        part.push(w);
        if (w === v) break;
      }
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

describe("imports", () => {
  it("no circle among the client's modules", () => {
    const graph = importGraph(files);
    expect(graph.size).toBeGreaterThan(20);
    expect([...graph.values()].some((arrows) => arrows.size > 0)).toBe(true);
    expect(circles(graph)).toEqual([]);
  });

  it("the check finds a circle", () => {
    const graph = importGraph({
      "../src/a.ts": 'import { b } from "./b";',
      "../src/b.ts": 'import { c } from "./sub/c";',
      "../src/sub/c.ts": 'import { a } from "../a";\nexport { x } from "./d";',
      "../src/sub/d.ts": "export const x = 1;",
    });
    expect(graph.get("sub/c")).toEqual(new Set(["a", "sub/d"]));
    expect(circles(graph)).toEqual([["a", "b", "sub/c"]]);
  });
});
