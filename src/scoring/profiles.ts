import { InputError } from "../core/errors.js";
import { authoringSkillProfile } from "./authoring-profile.js";
import { cometWorkflowProfile } from "./comet/profile.js";
import { genericProfile } from "./generic-profile.js";
import type { RubricProfile } from "./types.js";

/** Built-in rubric profiles by name. */
export const builtinProfiles: Readonly<Record<string, RubricProfile>> = Object.freeze({
  generic: genericProfile,
  "comet-workflow": cometWorkflowProfile,
  "authoring-skill": authoringSkillProfile,
});

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
