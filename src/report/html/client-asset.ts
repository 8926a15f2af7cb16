/**
 * The browser client's script, inlined into every HTML page. `npm run build` bundles
 * src/report/html/client/main.ts with esbuild into dist/report/html/client.js
 * (scripts/build-client.mjs); when this module runs from the sources (tests, tsx) there is no
 * such file beside it, and the sources are bundled in memory with the same options.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/**
 * esbuild's options for the client bundle (one IIFE, no imports left, for current browsers).
 * @public scripts/build-client.mjs imports it from dist/.
 */
export const CLIENT_BUNDLE_OPTIONS = {
  entryPoints: [fileURLToPath(new URL("../../../src/report/html/client/main.ts", import.meta.url))],
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2020",
  charset: "utf8",
  legalComments: "none",
  logLevel: "warning",
} as const;

let cached: string | null = null;

interface EsbuildSync {
  buildSync(opts: typeof CLIENT_BUNDLE_OPTIONS & { write: false }): {
    outputFiles: Array<{ text: string }>;
  };
}

/** The bundled client script. */
export function clientJsSource(): string {
  if (cached !== null) return cached;
  const built = `${HERE}client.js`;
  if (existsSync(built)) cached = readFileSync(built, "utf8");
  else {
    // From the sources: bundle them now (esbuild is a devDependency, present wherever the sources are).
    const esbuild = createRequire(import.meta.url)("esbuild") as EsbuildSync;
    const out = esbuild.buildSync({ ...CLIENT_BUNDLE_OPTIONS, write: false });
    cached = out.outputFiles[0]?.text ?? "";
  }
  return cached;
}
