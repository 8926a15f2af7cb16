import { describe, expect, it } from "vitest";
import { REPORT_SCHEMA_FINGERPRINT } from "../../../src/store/report-schema-fingerprint.js";
import { computeReportSchemaFingerprint } from "../../../src/store/schema-fingerprint.js";

describe("the run index's schema fingerprint", () => {
  it("is the one the report's and the digest's schemas give (else: npm run fingerprint)", () => {
    expect(REPORT_SCHEMA_FINGERPRINT).toBe(computeReportSchemaFingerprint());
  });
});
