// Bundle the CLI (src/cli/main.ts and everything it imports, dependencies included) into one file,
// dist/cli/main.js, the package's `skillbench` bin. Run by `npm run build` after tsc, whose own
// dist/cli/main.js it replaces; the library (dist/index.js and the rest of dist/, the package's
// exports) stays tsc's output, module per module.
//
// Why: loaded module by module, the CLI's ~550 ES modules cost about 0.45 CPU-s before any work at
// every invocation; as one file, about half that (bench/run-overhead.mjs measures what a `run`
// costs on top of the bare agent calls, start-up included).
//
// What the bundle keeps out: packages that only some commands load, with a dynamic import()
// (the queue's bullmq and ioredis, OpenTelemetry's exporters): they stay ordinary imports of
// node_modules, loaded when used. Files read at run time relative to a module keep working because
// the bundle lives two folders below the package root like every module of dist/ (data/ is found
// as ../../data), and the HTML client script is copied beside it (client-asset.ts reads client.js
// beside the module that asks); chart.js, tsx and the agents' binaries are resolved from
// node_modules as before.
import { copyFile } from "node:fs/promises";
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/cli/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["bullmq", "ioredis", "@opentelemetry/*"],
  // CommonJS dependencies (commander, yaml) require Node's built-ins: give the ES module a require.
  banner: {
    js: 'import { createRequire as __skillbenchCreateRequire } from "node:module";\nconst require = __skillbenchCreateRequire(import.meta.url);',
  },
  legalComments: "none",
  // Stack traces name the sources with node --enable-source-maps (replaces tsc's map of main.js).
  sourcemap: "linked",
  logLevel: "warning",
});
await copyFile("dist/report/html/client.js", "dist/cli/client.js");
