import { defineConfig } from "vitest/config";

// The server serves dist/ itself: index.html for "/" and "/t/{id}", and /assets/* as files.
// Absolute asset paths ("/assets/...") so that a page opened at /t/ID still finds them.
export default defineConfig({
  base: "/",
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
  },
});
