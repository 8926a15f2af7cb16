/** sequential.json on disk (docs/statistics.md §12). */
import path from "node:path";
import { readJsonFile, writeJsonAtomic } from "../../util/fs.js";
import { SequentialSchema, type Sequential } from "./types.js";

const SEQUENTIAL_FILE = "sequential.json";

/** The folder's sequential.json, parsed; null when there is none or it does not parse. */
export async function readSequential(dir: string): Promise<Sequential | null> {
  const json = await readJsonFile(path.join(dir, SEQUENTIAL_FILE)).catch(() => null);
  const parsed = SequentialSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export async function writeSequential(dir: string, s: Sequential): Promise<void> {
  await writeJsonAtomic(path.join(dir, SEQUENTIAL_FILE), SequentialSchema.parse(s));
}
