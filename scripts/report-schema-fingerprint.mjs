// Writes src/store/report-schema-fingerprint.ts: the fingerprint of the report's and the
// digest's schemas (store/schema-fingerprint.ts) that a run index's header names. Run with
// `npm run fingerprint` after changing RunReportSchema or RunDigestSchema (the unit test
// test/unit/store/schema-fingerprint.test.ts fails until then). Loads the TypeScript sources
// through tsx, so it needs no build.
import { readFile, writeFile } from "node:fs/promises";
import { computeReportSchemaFingerprint } from "../src/store/schema-fingerprint.ts";

const file = "src/store/report-schema-fingerprint.ts";
const fingerprint = computeReportSchemaFingerprint();
// Prettier breaks the line after `=`: the whitespace there is kept as it is.
const before = await readFile(file, "utf8");
const text = before.replace(
  /REPORT_SCHEMA_FINGERPRINT =(\s*)"[0-9a-f]*"/,
  (_m, space) => `REPORT_SCHEMA_FINGERPRINT =${space}"${fingerprint}"`,
);
if (text === before && !before.includes(fingerprint))
  throw new Error(`${file}: REPORT_SCHEMA_FINGERPRINT not found`);
await writeFile(file, text);
console.log(`${file}: ${fingerprint}`);
