import { InputError } from "../core/errors.js";

export const CONTROL = "CONTROL";

/** Who is compared with whom (a comparison's `roles`, report/comparison/types.ts). */
export interface Roles {
  candidate: string;
  baseline: string;
  /** CONTROL (context only), null when the experiment has none. */
  control: string | null;
}

export interface RoleOptions {
  candidate?: string | undefined;
  baseline?: string | undefined;
  control?: string | undefined;
}

function check(name: string | undefined, field: string, available: string[]): string | undefined {
  if (name === undefined) return undefined;
  if (!available.includes(name))
    throw new InputError(
      `--${field} ${name}: unknown treatment; available: ${available.join(", ") || "(none)"}`,
      { field },
    );
  return name;
}

/**
 * Who is compared with whom. Defaults: the candidate is the first treatment that is not
 * CONTROL, the baseline the next one that is neither CONTROL nor the candidate (CONTROL
 * when there is none), CONTROL is context. `available` is in the experiment's order.
 */
export function resolveRoles(available: string[], opts: RoleOptions): Roles {
  if (available.length < 2)
    throw new InputError(
      `only one treatment (${available.join(", ") || "none"}): a comparison needs two`,
      { field: "treatments" },
    );
  const candidate = check(opts.candidate, "candidate", available);
  const baseline = check(opts.baseline, "baseline", available);
  const control = check(opts.control, "control", available);
  const ctl = control ?? (available.includes(CONTROL) ? CONTROL : null);
  const pick = (exclude: Array<string | undefined>): string | undefined =>
    available.find((t) => t !== CONTROL && !exclude.includes(t)) ??
    available.find((t) => !exclude.includes(t));
  const cand = candidate ?? pick([baseline]);
  const base = baseline ?? pick([cand]);
  if (cand === undefined || base === undefined)
    throw new InputError("no two treatments to compare", { field: "treatments" });
  if (cand === base)
    throw new InputError(
      `candidate and baseline are both ${cand}: choose two different treatments (available: ${available.join(", ")})`,
      {
        field: "baseline",
      },
    );
  return { candidate: cand, baseline: base, control: ctl };
}
