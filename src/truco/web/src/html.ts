// The one way to put text into markup. Every piece of the page is built with the `html` tag:
// what it interpolates is text (escaped), unless it is itself `Html` built by the tag. Names,
// chat lines, señas and translated strings (which carry names) are therefore never markup.
// `mount` is the one place that hands markup to the browser (innerHTML); no other module may
// (test/markup.test.ts checks the sources).

const KEY = Symbol("html");

/** Markup built by the `html` tag (and only by it). */
export class Html {
  readonly #text: string;
  constructor(key: symbol, text: string) {
    if (key !== KEY) throw new Error("Html is built by the html tag only");
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
  get empty(): boolean {
    return this.#text === "";
  }
}

/** What a template may interpolate: text, numbers, markup, nothing, or a list of those. */
export type Part = Html | string | number | null | undefined | false | readonly Part[];

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as it may stand in an element or in a quoted attribute value. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

function part(value: Part): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return (value as readonly Part[]).map(part).join("");
  return escapeText(String(value));
}

// A template's static parts, with line breaks and the indentation around them removed (as JSX
// does), so that templates can be laid out on several lines without adding text nodes.
const squeezed = new WeakMap<TemplateStringsArray, string[]>();

function statics(strings: TemplateStringsArray): string[] {
  let out = squeezed.get(strings);
  if (!out) {
    out = strings.map((s, i) => {
      // Text interpolated after `attr=` without quotes could add attributes: refuse the template.
      if (i < strings.length - 1 && /=\s*$/.test(s)) throw new Error(`unquoted attribute value after ${JSON.stringify(s.slice(-30))}`);
      return s.replace(/\n\s*/g, "");
    });
    squeezed.set(strings, out);
  }
  return out;
}

/** The tag: html`<b>${name}</b>` escapes `name`; nested html`` parts stay markup. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  const s = statics(strings);
  let out = s[0] ?? "";
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (s[i + 1] ?? "");
  return new Html(KEY, out);
}

/** Markup for nothing. */
export const NOTHING: Html = html``;

/** Pieces of markup one after another, with `sep` (text) between them. */
export function join(parts: readonly Part[], sep = ""): Html {
  return new Html(KEY, parts.map(part).join(escapeText(sep)));
}

/** Put `markup` inside `el`, unless it holds that already. Returns whether it changed. */
export function mount(el: Element, markup: Html): boolean {
  const text = markup.toString();
  if (el.innerHTML === text) return false;
  el.innerHTML = text;
  return true;
}
