// Hand and match downloads (`/api/tables/ID/hands/N.toml`, `match.toml`). During a match the
// server gives them only to the table's players, with the seat token in an Authorization header,
// which a plain link cannot send: a click on such a link fetches the file with the token and
// saves it from a blob. The links themselves stay plain <a download> in the markup.

const HISTORY = /^\/api\/tables\/([^/]+)\/(hands\/\d+|match)\.toml$/;

/** Is `href` (absolute or not) one of this server's hand-history downloads? */
export function isHistoryLink(href: string, origin: string): boolean {
  try {
    const url = new URL(href, origin);
    return url.origin === origin && HISTORY.test(url.pathname);
  } catch {
    return false;
  }
}

/** Fetch `href` with the seat token and hand it to the browser as a download named `name`;
 * null when it was saved, else the error code the server answered. */
export async function download(href: string, token: string | null, name: string, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const res = await fetchImpl(href, { headers });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { code?: unknown } | null;
    return typeof body?.code === "string" ? body.code : "unavailable";
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}

/** Route clicks on history links through `download`, with the seat token of the link's table. */
export function installDownloads(root: Document | HTMLElement, token: (table: string) => string | null, failed: (code: string) => void): void {
  root.addEventListener("click", (ev) => {
    const link = (ev.target as Element | null)?.closest?.("a[download]");
    if (!(link instanceof HTMLAnchorElement) || !isHistoryLink(link.href, location.origin)) return;
    ev.preventDefault();
    const path = new URL(link.href).pathname;
    const table = decodeURIComponent(HISTORY.exec(path)?.[1] ?? "");
    const name = path.split("/").pop() ?? "hand.toml";
    download(link.href, token(table), name).then(
      (code) => code && failed(code),
      () => failed("network"),
    );
  });
}
