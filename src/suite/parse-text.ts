import { parse as parseTomlText, TomlError } from "smol-toml";
import { InputError } from "../core/errors.js";
import { parseYamlDocument, yamlToJs } from "../util/yaml.js";
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
  try {
    const { doc, lines } = parseYamlDocument(text, file, { merge: true });
    return { ok: true, value: yamlToJs(doc, lines, file) };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    // The helper's message starts with the file, which a problem's printing adds again.
    const message = e.message.startsWith(`${file}: `)
      ? e.message.slice(file.length + 2)
      : e.message;
    problems.error({ file, line: e.details.line, field: e.details.field, message });
    return { ok: false };
  }
}
