/**
 * The history page's browser client, inlined into every history/<skill>.html. `npm run build`
 * bundles src/report/html/client/history-main.ts with esbuild into dist/history/history-client.js
 * (scripts/build-client.mjs, copied beside the CLI bundle by scripts/build-cli.mjs; beside the experiment pages' client and with the same options);
 * from the sources (tests, tsx) the client is bundled in memory, as report/html/client-asset.ts
 * does for the experiment pages.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { CLIENT_BUNDLE_OPTIONS } from "../report/html/client-asset.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/**
 * esbuild's options for the history client bundle.
 * @public scripts/build-client.mjs imports it from dist/.
 */
export const HISTORY_CLIENT_BUNDLE_OPTIONS = {
  ...CLIENT_BUNDLE_OPTIONS,
  entryPoints: [
    fileURLToPath(new URL("../../src/report/html/client/history-main.ts", import.meta.url)),
  ],
};

let cached: string | null = null;

interface EsbuildSync {
  buildSync(opts: typeof HISTORY_CLIENT_BUNDLE_OPTIONS & { write: false }): {
    outputFiles: Array<{ text: string }>;
  };
}

/** The bundled history client script. */
export function historyClientJsSource(): string {
  if (cached !== null) return cached;
  const built = `${HERE}history-client.js`;
  if (existsSync(built)) cached = readFileSync(built, "utf8");
  else {
    const esbuild = createRequire(import.meta.url)("esbuild") as EsbuildSync;
    const out = esbuild.buildSync({ ...HISTORY_CLIENT_BUNDLE_OPTIONS, write: false });
    cached = out.outputFiles[0]?.text ?? "";
  }
  return cached;
}
