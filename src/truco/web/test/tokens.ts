/** The markup tests' tokenizer: what a browser would parse out of a piece of markup, and the
 * hostile names and lines they feed to every view. */

/** Names and lines a hostile player could send (names at most 24 characters, as the server allows). */
export const HOSTILE = [
  "<iframe onload=alert(1)>",
  '"><img src=x onerror=a>',
  "' onmouseover='alert(1)",
  "</title><script>a()</script>",
  "<svg/onload=alert(1)>",
  "&lt;b&gt;x&#39;",
  "<!--",
  "]]><x y=z>",
];

interface Tag {
  name: string;
  attrs: string[];
}

/** The tags of a piece of markup, as a browser's tokenizer would see them (names lower-cased). */
export function tags(markup: string): Tag[] {
  const out: Tag[] = [];
  let i = 0;
  while ((i = markup.indexOf("<", i)) >= 0) {
    if (markup.startsWith("<!--", i)) {
      out.push({ name: "!--", attrs: [] });
      const end = markup.indexOf("-->", i + 4);
      i = end < 0 ? markup.length : end + 3;
      continue;
    }
    const m = /^<\/?([a-zA-Z][^\s/>]*)/.exec(markup.slice(i));
    if (!m) {
      i++;
      continue;
    }
    const tag: Tag = { name: (m[0].startsWith("</") ? "/" : "") + m[1]!.toLowerCase(), attrs: [] };
    i += m[0].length;
    for (;;) {
      while (i < markup.length && /[\s/]/.test(markup[i]!)) i++;
      if (i >= markup.length || markup[i] === ">") break;
      const a = /^[^\s/>=]+/.exec(markup.slice(i))?.[0] ?? markup[i]!;
      i += a.length;
      tag.attrs.push(a.toLowerCase());
      while (/\s/.test(markup[i] ?? "")) i++;
      if (markup[i] !== "=") continue;
      i++;
      while (/\s/.test(markup[i] ?? "")) i++;
      const q = markup[i];
      if (q === '"' || q === "'") {
        const end = markup.indexOf(q, i + 1);
        i = end < 0 ? markup.length : end + 1;
      } else {
        while (i < markup.length && !/[\s>]/.test(markup[i]!)) i++;
      }
    }
    out.push(tag);
    i++;
  }
  return out;
}

export const structure = (markup: unknown) => tags(String(markup)).map((t) => `${t.name}(${t.attrs.join(",")})`);

/** The text a browser shows for a piece of markup (tags dropped, entities decoded). */
export function text(markup: unknown): string {
  return String(markup)
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
