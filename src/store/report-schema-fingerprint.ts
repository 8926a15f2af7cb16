// Written by `npm run fingerprint` (scripts/report-schema-fingerprint.mjs) from
// computeReportSchemaFingerprint (store/schema-fingerprint.ts); do not edit by hand.
/** The fingerprint of RunReportSchema and RunDigestSchema a run index's header names. */
export const REPORT_SCHEMA_FINGERPRINT =
  "edde81cbecc3b6e300712675a892eb30d31cc787509b0cd52b53d76d99056e35";
