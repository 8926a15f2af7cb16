/** Chart.js's UMD bundle, read once from the pinned npm dependency (node_modules/chart.js). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

let cached: string | null = null;

/** The source of chart.js/dist/chart.umd.js (defines the global `Chart`). */
export function chartJsSource(): string {
  if (cached === null) {
    const require = createRequire(import.meta.url);
    // The package's exports do not list the UMD file: resolve the CommonJS entry (dist/chart.cjs) and look beside it.
    const file = path.join(path.dirname(require.resolve("chart.js")), "chart.umd.js");
    cached = readFileSync(file, "utf8");
  }
  return cached;
}
