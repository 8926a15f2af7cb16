import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { loadSuite } from "../../../src/suite/index.js";
import type { Suite, SuiteWarning } from "../../../src/suite/index.js";

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

/** A throw-away folder holding `files` (relative path -> content). */
export async function makeDir(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), "skillbench-suite-"));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
  return root;
}

/** A one-task suite (`tasks/t`) plus extra files. */
export function oneTask(
  toml: string,
  extra: Record<string, string> = {},
  instruction = "Do it.\n",
): Record<string, string> {
  return { "tasks/t/task.toml": toml, "tasks/t/instruction.md": instruction, ...extra };
}

export async function load(
  files: Record<string, string>,
): Promise<{ suite: Suite; warnings: SuiteWarning[] }> {
  const root = await makeDir(files);
  const warnings: SuiteWarning[] = [];
  const suite = await loadSuite(root, { onWarning: (w) => warnings.push(w) });
  return { suite, warnings };
}

/** Load and return the InputError message (fails the test if loading succeeds). */
export async function loadError(files: Record<string, string>): Promise<string> {
  const root = await makeDir(files);
  try {
    await loadSuite(root);
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error("expected loadSuite to throw an InputError");
}
