import { describe, expect, it } from "vitest";
import { Html, html, join, NOTHING } from "../src/html";

describe("the html tag", () => {
  it("escapes text in elements and quoted attributes", () => {
    const name = `<b a="x" b='y'>&amp;</b>`;
    expect(String(html`<p title="${name}">${name}</p>`)).toBe(
      "<p title=\"&lt;b a=&quot;x&quot; b=&#39;y&#39;&gt;&amp;amp;&lt;/b&gt;\">&lt;b a=&quot;x&quot; b=&#39;y&#39;&gt;&amp;amp;&lt;/b&gt;</p>",
    );
  });
  it("keeps markup built by the tag, lists of parts, and draws nothing for null, undefined and false", () => {
    const inner = html`<i>${"<x>"}</i>`;
    expect(String(html`<p>${inner}${[html`<b>1</b>`, "<2>", 3, [null, undefined, false]]}</p>`)).toBe(
      "<p><i>&lt;x&gt;</i><b>1</b>&lt;2&gt;3</p>",
    );
    expect(NOTHING.empty).toBe(true);
    expect(html`${""}`.empty).toBe(true);
    expect(String(join([html`<b>a</b>`, "<c>"], " · "))).toBe("<b>a</b> · &lt;c&gt;");
  });
  it("drops line breaks and indentation between the template's lines, not spaces", () => {
    const markup = html`<div class="a">
      <span>x</span> <b>y</b>
      </div>`;
    expect(String(markup)).toBe('<div class="a"><span>x</span> <b>y</b></div>');
  });
  it("refuses a value after an unquoted attribute", () => {
    expect(() => html`<p title=${"x onclick=go()"}>`).toThrow(/unquoted attribute/);
  });
  it("cannot be forged from text", () => {
    expect(() => new Html(Symbol("html"), "<script>")).toThrow();
    const fake = { toString: () => "<script>" } as unknown as Html;
    expect(String(html`${fake as never}`)).toBe("&lt;script&gt;");
  });
});
