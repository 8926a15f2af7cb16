// Written by `npm run fingerprint` (scripts/report-schema-fingerprint.mjs) from
// computeReportSchemaFingerprint (store/schema-fingerprint.ts); do not edit by hand.
/** The fingerprint of RunReportSchema and RunDigestSchema a run index's header names. */
export const REPORT_SCHEMA_FINGERPRINT =
  "f57bf256fded4bd66aa51ce773eaec070ceaa99a36c543f1c6fb8b8773bb2b10";
