// After `vite build`: a brotli (.br) and a gzip (.gz) copy of every script, style sheet and page
// in dist/, made once here so that the server (truco/server/net/static.py) only picks the copy a
// request accepts and never compresses per request.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = process.argv[2] ?? "dist";

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let plain = 0;
let packed = 0;
for (const path of walk(dist)) {
  if (!/\.(js|css|html|svg)$/.test(path)) continue;
  const data = readFileSync(path);
  const br = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
  plain += data.length;
  packed += br.length;
}
console.log(`precompressed ${dist}: ${plain} bytes, ${packed} with brotli`);
