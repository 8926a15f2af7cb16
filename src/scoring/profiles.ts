import { InputError } from '../core/errors.js';
import { genericProfile } from './generic-profile.js';
import type { RubricProfile } from './types.js';

/** Built-in rubric profiles by name. */
export const builtinProfiles: Record<string, RubricProfile> = { generic: genericProfile };

/** Look a profile up by name; an unknown name is an InputError listing the available ones. */
export function resolveProfile(name: string, profiles: Record<string, RubricProfile> = builtinProfiles): RubricProfile {
  const p = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (p === undefined) {
    throw new InputError(`Profile not found: ${name}. Available: ${Object.keys(profiles).sort().join(', ')}`, {
      field: 'evaluation.profile',
    });
  }
  return p;
}
