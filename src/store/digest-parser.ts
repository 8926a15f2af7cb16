/**
 * report.json parsed for its digest (an unindexed reading, store/read.ts): ReportDigestSchema's
 * checks, with the fields whose values repeat from run to run of an experiment (the agent, the
 * suite's hashes, the Skill's sources, the check lists, the rubric...) checked once per distinct
 * value. Checking them all in every report was most of the schema's cost: an unindexed reading
 * of 10,000 runs spent ~0.28 CPU s in the whole digest schema (its generated parser and V8
 * optimizing it), ~0.12 s without those fields (bench/results/scale.md, "fourth round").
 *
 * A report whose fields are the same JSON as an earlier one's (util/same-json.ts) gets the
 * output that value got, which is the output zod gives for it: the schema's parsers are pure.
 * Anything refused is parsed again by the whole schema, so that a broken report is named with
 * the same field and message as before.
 */
import { z } from "zod";
import { ReportDigestSchema } from "../core/digest.js";
import { sameJson } from "../util/same-json.js";

type ReportDigest = z.infer<typeof ReportDigestSchema>;

/** The fields checked once per distinct value: those that the runs of an experiment repeat. */
const REPEATING = {
  agent: true,
  hashes: true,
  skill_sources: true,
  model_api: true,
  sample_quality: true,
  failure_attribution: true,
  failures: true,
  checks_passed: true,
  checks_failed: true,
  rubric: true,
  rubric_lines: true,
  skill_usage: true,
} as const satisfies { [K in keyof ReportDigest]?: true };
type Repeating = keyof typeof REPEATING;
const REPEATING_FIELDS = Object.keys(REPEATING) as Repeating[];

/** How many distinct values of each field are remembered (the latest seen). */
const RECENT = 4;

/** The schemas compiled (zod's `compile`) the first time a digest is parsed. */
interface Compiled {
  whole: typeof ReportDigestSchema;
  rest: z.ZodType<Omit<ReportDigest, Repeating>>;
  fields: { [K in Repeating]: z.ZodType<ReportDigest[K]> };
}
let compiled: Compiled | null = null;

function compileAll(): Compiled {
  const shape = ReportDigestSchema.shape;
  const fields = {} as Record<Repeating, z.ZodType>;
  for (const f of REPEATING_FIELDS) fields[f] = z.compile(shape[f]);
  return {
    whole: z.compile(ReportDigestSchema),
    rest: z.compile(ReportDigestSchema.omit(REPEATING)),
    // Each entry is `shape[f]` compiled, whose output type is ReportDigest[f].
    fields: fields as Compiled["fields"],
  };
}

export type DigestParse =
  { success: true; data: ReportDigest } | { success: false; error: z.ZodError };

/** One reading's parser: it remembers the values it checked (a few per field). */
export class DigestParser {
  private readonly recent = new Map<Repeating, Array<{ input: unknown; output: unknown }>>();

  parse(json: unknown): DigestParse {
    compiled ??= compileAll();
    const c = compiled;
    const rest = c.rest.safeParse(json);
    if (!rest.success || typeof json !== "object" || json === null) return c.whole.safeParse(json);
    const input = json as Record<string, unknown>;
    const out: Record<string, unknown> = rest.data;
    for (const f of REPEATING_FIELDS) {
      const v = input[f];
      let recent = this.recent.get(f);
      if (!recent) this.recent.set(f, (recent = []));
      let hit: { input: unknown; output: unknown } | undefined;
      for (const e of recent)
        if (sameJson(v, e.input)) {
          hit = e;
          break;
        }
      if (!hit) {
        const parsed = c.fields[f].safeParse(v);
        if (!parsed.success) return c.whole.safeParse(json);
        hit = { input: v, output: parsed.data };
        recent.unshift(hit);
        if (recent.length > RECENT) recent.pop();
      }
      // As the object's parser does: an absent optional field stays absent.
      if (hit.output !== undefined || f in input) out[f] = hit.output;
    }
    // `rest`'s output with each repeating field's own parse added: what the whole schema
    // gives for this input, but for the order of the keys (the repeating fields come last),
    // which digestOf's compactDigest sets anew (test/unit/store/digest-parser.test.ts).
    return { success: true, data: out as ReportDigest };
  }
}
