import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/** A copy of index.html as anotador/index.html, so that the server's static files answer
 *  /anotador (with a redirect to /anotador/) even before it routes that path to index.html. */
function anotadorPage(): Plugin {
  return {
    name: "truco-anotador-page",
    enforce: "post",
    apply: "build",
    generateBundle(_options, bundle) {
      const index = bundle["index.html"];
      if (index?.type === "asset") this.emitFile({ type: "asset", fileName: "anotador/index.html", source: index.source });
    },
  };
}

// The server serves dist/ itself: index.html for "/" and "/t/{id}", and /assets/* as files.
// Absolute asset paths ("/assets/...") so that a page opened at /t/ID still finds them.
export default defineConfig({
  base: "/",
  plugins: [anotadorPage()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npm run dev` against a local server on :8000
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // A hang guard, not a budget (vitest's default is 5 s): `make test` runs these beside mypy
    // and pytest's workers, and on a loaded machine the markup tests took longer than that.
    testTimeout: 240_000,
    setupFiles: ["test/setup.ts"],
    // test/markup.test.ts reads styles.css as text (?raw); vitest empties CSS unless asked.
    css: { include: [/styles\.css/] },
  },
});
