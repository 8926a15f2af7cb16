import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import type { z } from "zod";
import { InputError, errorMessage } from "../core/errors.js";
import {
  DECLARATIVE_FORMAT,
  DeclarativeProfileSchema,
  declarativeProfile,
} from "./profiles/declarative/profile.js";
import { HardCheckProfileSchema, hardCheckProfile } from "./profiles/hard-check/profile.js";
import type { RubricProfile } from "./types.js";

/** `a.b[2].c` from a zod issue path. */
function fieldPath(p: readonly PropertyKey[]): string {
  let out = "";
  for (const k of p)
    out += typeof k === "number" ? `[${k}]` : `${out === "" ? "" : "."}${String(k)}`;
  return out === "" ? "(top level)" : out;
}

function zodError(file: string, err: z.ZodError): InputError {
  const issue = err.issues[0];
  const field = issue ? fieldPath(issue.path) : "(top level)";
  const more =
    err.issues.length > 1
      ? ` (and ${err.issues.length - 1} more problem${err.issues.length > 2 ? "s" : ""})`
      : "";
  return new InputError(`${file}: ${field}: ${issue?.message ?? "invalid"}${more}`, {
    file,
    field,
  });
}

/**
 * Build a profile from a parsed TOML document. `format = "skillbench.rubric.v1"` selects the
 * declarative format; anything else is the original harness's hard-check format (docs/rubrics.md). Pure.
 */
function profileFromToml(doc: Record<string, unknown>, file: string): RubricProfile {
  const stem = path.basename(file, ".toml");
  if ("format" in doc) {
    if (doc.format !== DECLARATIVE_FORMAT) {
      throw new InputError(
        `${file}: format: expected ${JSON.stringify(DECLARATIVE_FORMAT)}, got ${JSON.stringify(doc.format)}`,
        { file, field: "format" },
      );
    }
    const r = DeclarativeProfileSchema.safeParse(doc);
    if (!r.success) throw zodError(file, r.error);
    return declarativeProfile(r.data, stem, file);
  }
  if ("dimension" in doc) {
    throw new InputError(
      `${file}: format: [[dimension]] tables need format = ${JSON.stringify(DECLARATIVE_FORMAT)} at the top of the file`,
      { file, field: "format" },
    );
  }
  const r = HardCheckProfileSchema.safeParse(doc);
  if (!r.success) throw zodError(file, r.error);
  return hardCheckProfile(r.data, stem, file);
}

/** Read and validate one `profiles/*.toml`. InputError names the file and the field. */
export async function loadProfileFile(file: string): Promise<RubricProfile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`${file}: cannot read profile: ${errorMessage(e)}`, { file });
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (e) {
    const line = e instanceof TomlError ? e.line : undefined;
    throw new InputError(`${file}: invalid TOML: ${errorMessage(e).split("\n")[0] ?? ""}`, {
      file,
      ...(line !== undefined ? { line } : {}),
    });
  }
  return profileFromToml(doc, file);
}

/**
 * Load a suite's profiles (`Suite.profiles`). Keyed by the profile's name (its `name` key,
 * else the file stem); two files with the same name are an InputError.
 */
export async function loadSuiteProfiles(
  files: readonly { name: string; file: string }[],
): Promise<Record<string, RubricProfile>> {
  const out: Record<string, RubricProfile> = {};
  for (const f of files) {
    const p = await loadProfileFile(f.file);
    if (Object.hasOwn(out, p.name)) {
      throw new InputError(
        `${f.file}: name: profile ${JSON.stringify(p.name)} is also defined in ${out[p.name]?.source ?? "another file"}`,
        { file: f.file, field: "name" },
      );
    }
    out[p.name] = p;
  }
  return out;
}
