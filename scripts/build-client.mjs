// Bundle the browser client (src/report/html/client/*.ts) into dist/report/html/client.js, the
// script the page writer inlines into every HTML page. Run by `npm run build` after tsc.
import { build } from "esbuild";
import { CLIENT_BUNDLE_OPTIONS } from "../dist/report/html/client-asset.js";

await build({ ...CLIENT_BUNDLE_OPTIONS, outfile: "dist/report/html/client.js" });
