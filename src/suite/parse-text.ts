import { parse as parseTomlText, TomlError } from "smol-toml";
import YAML from "yaml";
import type { Problems } from "./problems.js";

/**
 * TOML and YAML text -> plain data. Syntax errors become problems that name the
 * file and the line. Pure. Returns `undefined` after reporting an error.
 */

function indent(block: string): string {
  return block
    .replace(/\s+$/, "")
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}

export function parseToml(
  text: string,
  file: string,
  problems: Problems,
): Record<string, unknown> | undefined {
  try {
    return parseTomlText(text);
  } catch (e) {
    if (e instanceof TomlError) {
      const reason = (e.message.split("\n")[0] ?? "").replace(/^Invalid TOML document:\s*/, "");
      const frame = e.codeblock ? `\n${indent(e.codeblock)}` : "";
      problems.error({
        file,
        line: e.line,
        message: `line ${e.line}, column ${e.column}: invalid TOML: ${reason}${frame}`,
      });
      return undefined;
    }
    throw e;
  }
}

/** YAML 1.2 with `<<` merge keys (as PyYAML accepts them); duplicate keys are an error. */
export function parseYaml(
  text: string,
  file: string,
  problems: Problems,
): { ok: true; value: unknown } | { ok: false } {
  const doc = YAML.parseDocument(text, { merge: true, prettyErrors: true });
  const [err] = doc.errors;
  if (err) {
    const pos = err.linePos?.[0];
    const reason = (err.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    const where = pos ? `line ${pos.line}, column ${pos.col}: ` : "";
    problems.error({ file, line: pos?.line, message: `${where}invalid YAML: ${reason}` });
    return { ok: false };
  }
  const value: unknown = doc.toJS({ maxAliasCount: 1000 });
  return { ok: true, value };
}
