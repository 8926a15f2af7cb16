import { InputError } from "../core/errors.js";
import type { TaskSpec } from "./types.js";

/**
 * instruction.md templating. Pure.
 *
 * Rule (compatible with the Python `str.format` templates for every text that
 * rendered there, and forgiving where Python crashed):
 * - `{name}` where name is an identifier (`[A-Za-z_][A-Za-z0-9_]*`) is a placeholder;
 * - `{{` is a literal `{` and `}}` a literal `}` (so `{{name}}` renders `{name}`);
 * - anything else is left as written: a lone `{` or `}`, `{ return 1; }`,
 *   `{0}`, `{a.b}`, `{x:>4}`, `{foo-bar}`.
 * A placeholder without a value is an error; nothing is silently blanked.
 */

const TOKEN = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Placeholder names in `text`, unique, in first-seen order. */
export function templatePlaceholders(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(TOKEN)) if (m[1] !== undefined) seen.add(m[1]);
  return [...seen];
}

export interface RenderResult {
  text: string;
  /** Placeholder names that had no value (each once); they are left as written in `text`. */
  missing: string[];
}

export function renderTemplate(text: string, vars: Readonly<Record<string, string>>): RenderResult {
  const missing = new Set<string>();
  const out = text.replace(TOKEN, (tok: string, name: string | undefined) => {
    if (name === undefined) return tok === "{{" ? "{" : "}";
    if (Object.hasOwn(vars, name)) return vars[name] ?? "";
    missing.add(name);
    return tok;
  });
  return { text: out, missing: [...missing] };
}

function quoteList(names: string[]): string {
  return names.map((n) => `'${n}'`).join(", ");
}

/**
 * Render a task's instruction.md. `vars` (which includes `run_id`) fills the
 * placeholders, together with `[setup].template_vars`, whose values are themselves
 * rendered with `vars` first (so they may use `{run_id}`). A name given in `vars`
 * wins over a template var of the same name. Throws InputError when a
 * `[template].required` name or a placeholder has no value.
 */
export function renderInstruction(task: TaskSpec, vars: Record<string, string>): string {
  const tomlFile = `${task.rel_dir}/task.toml`;
  const mdFile = `${task.rel_dir}/instruction.md`;
  const all: Record<string, string> = {};
  const problems: string[] = [];

  for (const [k, v] of Object.entries(task.setup.template_vars)) {
    if (Object.hasOwn(vars, k)) continue;
    const r = renderTemplate(v, vars);
    if (r.missing.length > 0) {
      problems.push(
        `${tomlFile}: [setup].template_vars.${k}: missing template variable${r.missing.length > 1 ? "s" : ""} ${quoteList(r.missing)}`,
      );
    }
    all[k] = r.text;
  }
  for (const [k, v] of Object.entries(vars)) all[k] = v;

  const notSupplied = task.template.required.filter((n) => !Object.hasOwn(all, n));
  if (notSupplied.length > 0) {
    problems.push(
      `${tomlFile}: [template].required: required template variable${notSupplied.length > 1 ? "s" : ""} ${quoteList(notSupplied)} not supplied`,
    );
  }

  const r = renderTemplate(task.instruction_template, all);
  if (r.missing.length > 0) {
    problems.push(
      `${mdFile}: missing template variable${r.missing.length > 1 ? "s" : ""} ${quoteList(r.missing)}`,
    );
  }
  if (problems.length > 0) {
    throw new InputError(problems.join("\n"), {
      file: problems[0]?.startsWith(mdFile) ? mdFile : tomlFile,
    });
  }
  return r.text;
}
