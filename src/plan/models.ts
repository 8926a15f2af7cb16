import { InputError } from "../core/errors.js";
import { MODEL_ID, type Suite } from "../suite/index.js";

/**
 * Which model each run asks its agent for, settled before any run starts (docs/agents.md, "Models
 * as a matrix axis"): a treatment's own `model:` wins; every other treatment runs on the default
 * list, `--model` (which may be a comma list, `--model large,small`, to cross every treatment with
 * models), else skillbench.yaml's `model`, else ANTHROPIC_MODEL, else the agent's own default
 * (null). Pure.
 */
export function modelsOfTreatments(
  suite: Suite,
  defaults: readonly (string | null)[],
): (treatment: string) => readonly (string | null)[] {
  return (name) => suite.treatments.find((t) => t.name === name)?.models ?? defaults;
}

/**
 * The default model list from its text: `--model a,b` → `["a", "b"]`; one id without a comma
 * stays that one id, as before models were an axis; null or empty: `[null]` (the agent's own).
 */
export function parseModelList(text: string | null, field = "--model"): (string | null)[] {
  if (text === null || text.trim() === "") return [null];
  if (!text.includes(",")) return [text];
  const out: string[] = [];
  for (const raw of text.split(",").map((s) => s.trim())) {
    if (!MODEL_ID.test(raw))
      throw new InputError(
        `${field} ${JSON.stringify(text)}: ${raw === "" ? "an empty model id" : `model ${JSON.stringify(raw)} is not one word`}; give one id or a comma list of ids`,
        { field },
      );
    if (!out.includes(raw)) out.push(raw);
  }
  return out;
}
