import path from "node:path";
import { PairwiseFileSchema, type PairwiseFile } from "../core/pairwise.js";
import { readJsonFile, writeJsonAtomic } from "../util/fs.js";

/** `<results>/pairwise.json`: the pairwise judge's verdicts (core/pairwise.ts). */
const PAIRWISE_FILE = "pairwise.json";

/** The stored verdicts; null when absent or unreadable (the reports then show no pairwise section). */
export async function readPairwise(dir: string): Promise<PairwiseFile | null> {
  const json = await readJsonFile(path.join(dir, PAIRWISE_FILE)).catch(() => null);
  const parsed = PairwiseFileSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export async function writePairwise(dir: string, f: PairwiseFile): Promise<void> {
  await writeJsonAtomic(path.join(dir, PAIRWISE_FILE), PairwiseFileSchema.parse(f));
}
