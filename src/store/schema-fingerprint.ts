/**
 * The fingerprint of the schemas a run index's values were parsed with (store/run-index.ts):
 * a hash of the report's and the digest's JSON Schemas, so it changes with any field, type or
 * default. Building those JSON Schemas takes ~10 ms, at every invocation that reads or writes an
 * index, so the run index uses the value kept in report-schema-fingerprint.ts;
 * test/unit/store/schema-fingerprint.test.ts checks that value against this function, and
 * `npm run fingerprint` writes it anew after a schema change.
 */
import { z } from "zod";
import { RunDigestSchema } from "../core/digest.js";
import { RunReportSchema } from "../core/report.js";
import { sha256 } from "../util/hash.js";

export function computeReportSchemaFingerprint(): string {
  return sha256(
    JSON.stringify([
      z.toJSONSchema(RunReportSchema, { io: "output" }),
      z.toJSONSchema(RunDigestSchema, { io: "output" }),
    ]),
  );
}
