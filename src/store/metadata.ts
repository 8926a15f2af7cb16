import { z } from "zod";
import { readJsonFile } from "../util/fs.js";

export const MetadataSchema = z
  .object({
    schema: z.string(),
    experiment_id: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    suite: z.object({ path: z.string(), hash: z.string() }),
    treatments: z.array(z.string()),
    model: z.string().nullable(),
    versions: z.object({ skillbench: z.string(), claude: z.string().nullable() }).passthrough(),
    /** The planned runs; reports outside it (left by an older plan) are not summarised. */
    matrix: z.array(z.object({ run_id: z.string() }).passthrough()).optional(),
    /** `run --baseline-from`: where the frozen baseline came from and how it differs. */
    baseline_from: z
      .object({
        dir: z.string(),
        treatment: z.string(),
        runs: z.array(z.string()),
        drift: z.array(z.string()),
      })
      .optional()
      .catch(undefined),
    /** The verdict's non-inferiority margin (`run --margin`), reused by report, compare and rescore. */
    margin: z.number().gt(0).lt(1).optional().catch(undefined),
    /** Treatment roles chosen with `compare --candidate/--baseline/--control`, reused by report and rescore. */
    comparison_roles: z
      .object({
        candidate: z.string().optional(),
        baseline: z.string().optional(),
        control: z.string().optional(),
      })
      .optional(),
  })
  .passthrough();
export type Metadata = z.infer<typeof MetadataSchema>;

export async function readMetadata(file: string): Promise<Metadata | null> {
  const json = await readJsonFile(file).catch(() => null);
  const parsed = MetadataSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
