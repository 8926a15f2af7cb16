// Bundle the CLI (src/cli/main.ts and everything it imports, dependencies included) into one
// CommonJS file, dist/cli/bundle.cjs, and write the package's `skillbench` bin, dist/cli/main.js,
// from scripts/cli-launcher.mjs: it runs the bundle with V8's code cache (see there). Run by
// `npm run build` after tsc, whose own dist/cli/main.js it replaces; the library (dist/index.js
// and the rest of dist/, the package's exports) stays tsc's output, module per module.
//
// Why: loaded module by module, the CLI's ~550 ES modules cost about 0.45 CPU-s before any work at
// every invocation; as one file, about half that, and with the code cache less again
// (bench/run-overhead.mjs measures what a `run` costs on top of the bare agent calls, start-up
// included).
//
// What the bundle keeps out: packages that only some commands load, with a dynamic import()
// (the queue's bullmq and ioredis, OpenTelemetry's exporters, the history store's better-sqlite3,
// whose native addon is found relative to its own package, and pg): they stay ordinary imports of
// node_modules, loaded when used (required: see `supported` below). Files read at run time relative to a module keep working because
// the bundle lives two folders below the package root like every module of dist/ (data/ is found
// as ../../data; import.meta.url is the bundle's own file URL), and the HTML client script is
// copied beside it (client-asset.ts reads client.js beside the module that asks); chart.js, tsx
// and the agents' binaries are resolved from node_modules as before.
import { createHash } from "node:crypto";
import { chmod, copyFile, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/cli/bundle.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["bullmq", "ioredis", "@opentelemetry/*", "better-sqlite3", "pg"],
  // import() becomes require() (each of those packages has a CommonJS build): a script compiled
  // from V8's code cache has no dynamic import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
  supported: { "dynamic-import": false },
  // The sources are ES modules: import.meta.url becomes the bundle's file URL.
  define: { "import.meta.url": "__skillbenchModuleUrl" },
  banner: {
    js: 'var __skillbenchModuleUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  legalComments: "none",
  // Stack traces name the sources with node --enable-source-maps.
  sourcemap: "linked",
  logLevel: "warning",
});
// The bundle in ASCII only: esbuild escapes the non-ASCII characters of strings but keeps those of
// regular expression literals and comments (the profiles' Chinese patterns, "—" in comments). As
// ASCII, the launcher reads it as latin1 into a one-byte string (~4 ms), where UTF-8 decoding of
// 2.4 MB into a two-byte string costs ~30 ms at every invocation. A \uXXXX escape means the same
// character in a string, a template, a regular expression (a surrogate pair is one character
// with the u flag too) and an identifier; in a comment it is only text.
const text = await readFile("dist/cli/bundle.cjs", "utf8");
// A backslash before such a character would make its escape read as other text: refused.
if (/\\[^\p{ASCII}]/u.test(text))
  throw new Error(
    "dist/cli/bundle.cjs: a non-ASCII character after a backslash; escape it in the source",
  );
const ascii = text.replace(/[^\p{ASCII}]/gu, (c) =>
  Array.from(
    { length: c.length },
    (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`,
  ).join(""),
);
await writeFile("dist/cli/bundle.cjs", ascii);
const hash = createHash("sha256").update(ascii).digest("hex").slice(0, 16);
const launcher = (await readFile("scripts/cli-launcher.mjs", "utf8")).replace(
  "__BUNDLE_HASH__",
  hash,
);
await writeFile("dist/cli/main.js", launcher);
await chmod("dist/cli/main.js", 0o755);
// tsc's map of main.js describes the file replaced; the code caches of an older bundle are stale.
await rm("dist/cli/main.js.map", { force: true });
for (const f of await readdir("dist/cli"))
  if (f.startsWith("bundle-") && f.endsWith(".v8cache")) await rm(`dist/cli/${f}`, { force: true });
await copyFile("dist/report/html/client.js", "dist/cli/client.js");
// The history page's client likewise (history/html-asset.ts reads history-client.js beside it).
await copyFile("dist/history/history-client.js", "dist/cli/history-client.js");
