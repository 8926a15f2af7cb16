// Written by `npm run fingerprint` (scripts/report-schema-fingerprint.mjs) from
// computeReportSchemaFingerprint (store/schema-fingerprint.ts); do not edit by hand.
/** The fingerprint of RunReportSchema and RunDigestSchema a run index's header names. */
export const REPORT_SCHEMA_FINGERPRINT =
  "80626650b94859520d4be3c1264834f5abc73dc2ac4f3338e79066ed7a2380e3";
