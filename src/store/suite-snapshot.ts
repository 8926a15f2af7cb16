import { cp, rm } from "node:fs/promises";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { experimentPaths } from "./layout.js";
import { TaskSpecSchema, TreatmentSpecSchema, type Suite } from "../suite/index.js";
import { readJsonFile, writeJsonAtomic } from "../util/fs.js";

const SuiteSnapshotSchema = z.object({
  schema: z.literal("skillbench.suite-snapshot.v1"),
  root: z.string(),
  hash: z.string(),
  tasks: z.array(TaskSpecSchema),
  treatments: z.array(TreatmentSpecSchema),
  profiles: z.array(z.object({ name: z.string(), file: z.string() })),
});
export type SuiteSnapshot = z.infer<typeof SuiteSnapshotSchema>;

/**
 * Keep what scoring needs beside the results (the parsed task and treatment
 * specs, and a copy of the suite's profiles/), so that `rescore` works even
 * after the suite has moved or changed.
 */
export async function writeSuiteSnapshot(outDir: string, suite: Suite): Promise<void> {
  const paths = experimentPaths(outDir);
  await rm(paths.profiles, { recursive: true, force: true });
  const profiles: SuiteSnapshot["profiles"] = [];
  for (const p of suite.profiles) {
    const rel = `profiles/${p.name}.toml`;
    await cp(p.file, `${outDir}/${rel}`);
    profiles.push({ name: p.name, file: rel });
  }
  const snapshot: SuiteSnapshot = {
    schema: "skillbench.suite-snapshot.v1",
    root: suite.root,
    hash: suite.hash,
    tasks: suite.tasks,
    treatments: suite.treatments,
    profiles,
  };
  await writeJsonAtomic(paths.suiteSnapshot, snapshot);
}

export async function readSuiteSnapshot(outDir: string): Promise<SuiteSnapshot> {
  const file = experimentPaths(outDir).suiteSnapshot;
  const json = await readJsonFile(file).catch(() => {
    throw new InputError(
      `${file}: missing: this results folder was written before skillbench kept a suite snapshot, so it cannot be re-scored (run the suite again)`,
      { file },
    );
  });
  const parsed = SuiteSnapshotSchema.safeParse(json);
  if (!parsed.success)
    throw new InputError(
      `${file}: not a suite snapshot this skillbench can read: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      { file },
    );
  return parsed.data;
}
