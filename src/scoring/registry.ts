import { InputError } from "../core/errors.js";
import { authoringSkillProfile } from "./profiles/authoring-skill/profile.js";
import { cometWorkflowProfile } from "./profiles/comet-workflow/index.js";
import { GENERIC_SIMULATOR_PROMPT, genericProfile } from "./profiles/generic/profile.js";
import type {
  NativeTreatmentHooks,
  ProfileInteractionDefaults,
  ProfileJudge,
  RubricProfile,
  SkillHooks,
} from "./types.js";

/**
 * The registry of rubric profiles: the only place that names the built-in profiles. Everything
 * outside `src/scoring/profiles/` reaches a profile through the `RubricProfile` interface and
 * the lookups below. A new built-in is one folder under `profiles/` and one entry here
 * (docs/ARCHITECTURE.md, "Extension points").
 */
const BUILTIN: readonly RubricProfile[] = [
  genericProfile,
  cometWorkflowProfile,
  authoringSkillProfile,
];

/** Built-in rubric profiles by name. */
export const builtinProfiles: Readonly<Record<string, RubricProfile>> = Object.freeze(
  Object.fromEntries(BUILTIN.map((p) => [p.name, p])),
);

function builtin(name: string): RubricProfile | undefined {
  return Object.hasOwn(builtinProfiles, name) ? builtinProfiles[name] : undefined;
}

/** Built-ins plus a suite's profiles; a suite profile with a built-in name overrides it. */
function availableProfiles(
  suiteProfiles: Readonly<Record<string, RubricProfile>> = {},
): Record<string, RubricProfile> {
  return { ...builtinProfiles, ...suiteProfiles };
}

/**
 * Look a profile up by name among the built-ins and the suite's profiles (see
 * `loadSuiteProfiles`); an unknown name is an InputError listing the available ones.
 */
export function resolveProfile(
  name: string,
  suiteProfiles: Readonly<Record<string, RubricProfile>> = {},
): RubricProfile {
  const profiles = availableProfiles(suiteProfiles);
  const p = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (p === undefined) {
    throw new InputError(
      `Profile not found: ${name}. Available: ${Object.keys(profiles).sort().join(", ")}`,
      {
        field: "evaluation.profile",
      },
    );
  }
  return p;
}

/*
 * What a profile settles before scoring (the prompt contract, the loop's defaults, the judge
 * prompt) follows the built-in profile of that name, as in the original harness, which decided
 * these by the profile's name: a suite profile that replaces a built-in's rubric keeps them, and
 * any other name gets the defaults.
 */

/** Loop defaults of a profile without its own: single-turn, 12 turns, the generic simulator. */
const DEFAULT_INTERACTION: ProfileInteractionDefaults = {
  mode: "none",
  max_turns: 12,
  simulator_prompt: GENERIC_SIMULATOR_PROMPT,
};

/** The `auto_user` loop's defaults for runs of this profile (docs/interaction.md §1). */
export function profileInteractionDefaults(name: string): ProfileInteractionDefaults {
  return builtin(name)?.interaction ?? DEFAULT_INTERACTION;
}

/** The prompt a run of this profile gets: the profile's contract, if any, then the instruction. */
export function promptForProfile(name: string, renderedInstruction: string): string {
  const prefix = builtin(name)?.promptPrefix;
  return prefix === undefined ? renderedInstruction : `${prefix}\n\n${renderedInstruction}`;
}

/** The profile's own LLM-judge prompt; null: the generic one (docs/judge.md, Prompts). */
export function profileJudge(name: string): ProfileJudge | null {
  return builtin(name)?.judge ?? null;
}

/**
 * The hooks every built-in profile's Skill asks for once installed (`RubricProfile.skillHooks`),
 * in registry order: they follow the installed Skills, not the run's profile.
 */
export function skillHooks(installed: (rel: string) => boolean, skillsDir: string): SkillHooks[] {
  return BUILTIN.flatMap((p) => {
    const hooks = p.skillHooks?.(installed, skillsDir) ?? null;
    return hooks === null ? [] : [hooks];
  });
}

/** The Native treatment as the built-in profile that defines it says (`RubricProfile.native`). */
export function nativeTreatment(): NativeTreatmentHooks | null {
  return BUILTIN.find((p) => p.native !== undefined)?.native ?? null;
}

/**
 * The profile of a task whose task.toml names none: the first built-in that claims it by its
 * category and name (`claimsTask`), else `generic` (docs/tasks.md).
 */
export function claimingProfile(category: string, name: string): string {
  return BUILTIN.find((p) => p.claimsTask?.(category, name) === true)?.name ?? genericProfile.name;
}

/** task.toml's `[interaction].mode` of a task of this profile that sets none (`taskInteractionMode`). */
export function taskInteractionMode(name: string): "none" | "auto_user" {
  return builtin(name)?.taskInteractionMode ?? "none";
}
