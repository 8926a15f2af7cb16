import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { HealthReport } from "../core/health.js";
import { writeFileAtomic, writeJsonAtomic } from "../util/fs.js";
import { renderHealthMarkdown } from "./render.js";

export const HEALTH_FILE = "health.json";
const HEALTH_MD_FILE = "health.md";

/** health.json and health.md in `dir` (atomically); returns the files written. */
export async function writeHealth(dir: string, report: HealthReport): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, HEALTH_FILE);
  const md = path.join(dir, HEALTH_MD_FILE);
  await writeJsonAtomic(json, report);
  await writeFileAtomic(
    md,
    `# Task health\n\n${renderHealthMarkdown(report, "##").split("\n").slice(2).join("\n")}`,
  );
  return [json, md];
}
