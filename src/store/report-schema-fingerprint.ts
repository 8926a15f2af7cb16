// Written by `npm run fingerprint` (scripts/report-schema-fingerprint.mjs) from
// computeReportSchemaFingerprint (store/schema-fingerprint.ts); do not edit by hand.
/** The fingerprint of RunReportSchema and RunDigestSchema a run index's header names. */
export const REPORT_SCHEMA_FINGERPRINT =
  "a29253c645425e547bbca3ba5e0b135c98b84411c81213ebdabb8b485dd0777f";
