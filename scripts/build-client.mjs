// Bundle the browser clients (src/report/html/client/*.ts) into dist/report/html/client.js, the
// script the page writer inlines into every HTML page, and dist/history/history-client.js, the one of
// the history pages (history/<skill>.html). Run by `npm run build` after tsc.
import { build } from "esbuild";
import { CLIENT_BUNDLE_OPTIONS } from "../dist/report/html/client-asset.js";
import { HISTORY_CLIENT_BUNDLE_OPTIONS } from "../dist/history/html-asset.js";

await build({ ...CLIENT_BUNDLE_OPTIONS, outfile: "dist/report/html/client.js" });
await build({ ...HISTORY_CLIENT_BUNDLE_OPTIONS, outfile: "dist/history/history-client.js" });
