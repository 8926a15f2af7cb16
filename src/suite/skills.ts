import { stat } from "node:fs/promises";
import path from "node:path";
import { hashTree, sha256 } from "../util/hash.js";
import type { Problems } from "./problems.js";
import type { SkillEntry } from "./treatment-entry.js";
import { NAME_PATTERN, type SkillSpec } from "./types.js";

/**
 * Resolve skill entries on disk and hash them.
 *
 * A relative path is looked up against the treatment file's folder first, then
 * the suite root, then the suite root's parent (the Python harness's "eval root",
 * so `../assets/skills/x` in its own eval/local suite loads unchanged); the first
 * candidate that holds SKILL.md wins. A path may name
 * the folder or the SKILL.md file itself.
 */

const IGNORED_SEGMENTS = new Set([".git", ".comet", "__pycache__", ".DS_Store"]);

/**
 * Files of a skill folder that are neither hashed nor (by contract) copied into
 * the workspace: anything under `.git`, `.comet`, `__pycache__`, and `.DS_Store`.
 */
export function isIgnoredSkillPath(rel: string): boolean {
  return rel.split("/").some((seg) => IGNORED_SEGMENTS.has(seg));
}

/** `sha256:<hex>` over the sorted relative paths and bytes of a skill folder. */
export function hashSkillDir(dir: string): Promise<string> {
  return hashTree(dir, isIgnoredSkillPath);
}

function hashInlineSkill(content: string): string {
  return `sha256:${sha256(content)}`;
}

async function kindOf(p: string): Promise<"file" | "dir" | null> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : null;
  } catch {
    return null;
  }
}

export interface SkillContext {
  /** Shown in messages (e.g. `treatments/common/a.yaml`). */
  file: string;
  treatmentDir: string;
  root: string;
  problems: Problems;
}

export async function resolveSkill(
  entry: SkillEntry,
  ctx: SkillContext,
): Promise<SkillSpec | undefined> {
  const fail = (message: string): undefined => {
    ctx.problems.error({
      file: ctx.file,
      field: entry.field,
      message: `${entry.field}: ${message}`,
    });
    return undefined;
  };
  if (entry.kind === "inline") {
    return {
      name: entry.name,
      source_type: "inline",
      path: null,
      content: entry.content,
      hash: hashInlineSkill(entry.content),
    };
  }

  const candidates = path.isAbsolute(entry.path)
    ? [entry.path]
    : [
        ...new Set([
          path.resolve(ctx.treatmentDir, entry.path),
          path.resolve(ctx.root, entry.path),
          // The Python harness resolved against its eval root, the parent of the suite root (eval/local).
          path.resolve(path.dirname(ctx.root), entry.path),
        ]),
      ];
  let dir: string | undefined;
  let firstExisting: { p: string; kind: "file" | "dir" } | undefined;
  for (const c of candidates) {
    const kind = await kindOf(c);
    if (kind === null) continue;
    firstExisting ??= { p: c, kind };
    if (kind === "dir" && (await kindOf(path.join(c, "SKILL.md"))) === "file") {
      dir = c;
      break;
    }
    if (kind === "file" && path.basename(c) === "SKILL.md") {
      dir = path.dirname(c);
      break;
    }
  }
  if (dir === undefined) {
    if (firstExisting === undefined) {
      return fail(
        `skill folder not found: ${JSON.stringify(entry.path)} (looked in ${candidates.join(", ")})`,
      );
    }
    if (firstExisting.kind === "file") {
      return fail(
        `${firstExisting.p} is a file; give a folder that contains SKILL.md, or the SKILL.md file itself`,
      );
    }
    return fail(`SKILL.md not found in ${firstExisting.p}`);
  }

  const name = entry.name ?? path.basename(dir);
  if (!NAME_PATTERN.test(name)) {
    return fail(
      `the folder name ${JSON.stringify(name)} is not a safe skill name (${NAME_PATTERN.source}); give the entry a "name"`,
    );
  }
  // A key file must be one of the Skill's own files: the usage counts only those (docs/evidence.md).
  for (const [i, k] of (entry.key_files ?? []).entries()) {
    const rel = path.posix.normalize(k.replace(/\\/g, "/"));
    const inside = rel !== ".." && !rel.startsWith("../") && !path.posix.isAbsolute(rel);
    if (!inside || isIgnoredSkillPath(rel) || (await kindOf(path.join(dir, rel))) !== "file")
      return fail(
        `key_files[${i}]: ${JSON.stringify(k)} is not a file of the Skill ${dir} (name a file under it, e.g. references/format.md)`,
      );
  }
  const keyFiles = (entry.key_files ?? []).map((k) => path.posix.normalize(k.replace(/\\/g, "/")));
  return {
    name,
    source_type: "path",
    path: dir,
    content: null,
    hash: await hashSkillDir(dir),
    ...(keyFiles.length > 0 ? { key_files: keyFiles } : {}),
  };
}
