// Written by `npm run fingerprint` (scripts/report-schema-fingerprint.mjs) from
// computeReportSchemaFingerprint (store/schema-fingerprint.ts); do not edit by hand.
/** The fingerprint of RunReportSchema and RunDigestSchema a run index's header names. */
export const REPORT_SCHEMA_FINGERPRINT =
  "27301919bc6be411a73c6488ea6db9c95d8376dbf12128351ba060790ab94356";
