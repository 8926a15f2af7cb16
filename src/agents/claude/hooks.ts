/**
 * Claude Code hooks of a treatment, installed in the workspace's project settings
 * (`.claude/settings.json`, merged with one the task's environment/ brought): the treatment's
 * own `hooks:`, and those a profile's Skill asks for once installed (`RubricProfile.skillHooks`,
 * handed in by the caller). See docs/manifest.md, "Treatments".
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AgentHooks } from "../../core/hooks.js";
import { isRecord } from "../../core/json.js";

/** `base` with every group of `add` appended to its event (a group already there is not repeated). Pure. */
export function mergeHooks(base: unknown, add: AgentHooks): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  if (isRecord(base))
    for (const [event, groups] of Object.entries(base))
      out[event] = Array.isArray(groups) ? [...(groups as unknown[])] : [];
  for (const [event, groups] of Object.entries(add)) {
    const list = (out[event] ??= []);
    const seen = new Set(list.map((g) => JSON.stringify(g)));
    for (const g of groups) if (!seen.has(JSON.stringify(g))) list.push(g);
  }
  return out;
}

/** Write the hooks into `<workspace>/<settingsFile>`, keeping the file's other settings. */
export async function installHooks(
  workspace: string,
  settingsFile: string,
  hooks: AgentHooks[],
): Promise<void> {
  if (hooks.length === 0) return;
  const file = path.join(workspace, settingsFile);
  let settings: Record<string, unknown> = {};
  if (existsSync(file)) {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (!isRecord(parsed)) throw new Error(`${settingsFile} in the workspace is not a JSON object`);
    settings = parsed;
  }
  let merged: Record<string, unknown[]> = mergeHooks(settings.hooks, {});
  for (const h of hooks) merged = mergeHooks(merged, h);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...settings, hooks: merged }, null, 2)}\n`);
}
