// Writes src/store/report-schema-fingerprint.ts: the fingerprint of the report's and the
// digest's schemas (store/schema-fingerprint.ts) that a run index's header names. Run with
// `npm run fingerprint` after changing RunReportSchema or RunDigestSchema (the unit test
// test/unit/store/schema-fingerprint.test.ts fails until then). Loads the TypeScript sources
// through tsx, so it needs no build.
import { readFile, writeFile } from "node:fs/promises";
import { computeReportSchemaFingerprint } from "../src/store/schema-fingerprint.ts";

const file = "src/store/report-schema-fingerprint.ts";
const fingerprint = computeReportSchemaFingerprint();
const text = (await readFile(file, "utf8")).replace(
  /REPORT_SCHEMA_FINGERPRINT =\s*"[0-9a-f]*"/,
  `REPORT_SCHEMA_FINGERPRINT = "${fingerprint}"`,
);
await writeFile(file, text);
console.log(`${file}: ${fingerprint}`);
