/** Markup reaches the page only through html.ts: a scan of every source module. */

import ts from "typescript";
import { describe, expect, it } from "vitest";

describe("markup reaches the page only through html.ts", () => {
  const files = import.meta.glob<string>("../src/**/*.ts", { query: "?raw", import: "default", eager: true });
  const sources = Object.entries(files).map(([path, src]) => [path.replace("../src/", ""), src] as const);

  it("no other module writes markup into the page", () => {
    expect(sources.length).toBeGreaterThan(10);
    const sinks = /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|srcdoc/;
    const found = sources.filter(([f, src]) => f !== "html.ts" && sinks.test(src)).map(([f]) => f);
    expect(found).toEqual([]);
  });

  it("every template or string that holds a tag is an html`` template", () => {
    const untagged: string[] = [];
    for (const [f, src] of sources) {
      const file = ts.createSourceFile(f, src, ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node): void => {
        const literal =
          ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node);
        if (literal) {
          const parent = node.parent;
          const tagged = ts.isTaggedTemplateExpression(parent) && parent.tag.getText(file) === "html";
          if (!tagged && /<\/?[a-zA-Z]/.test(node.getText(file))) untagged.push(`${f}: ${node.getText(file).slice(0, 60)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    expect(untagged).toEqual([]);
  });
});
