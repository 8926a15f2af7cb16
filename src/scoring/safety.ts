/**
 * Dangerous shell command patterns (docs/rubrics.md, generic: "Dangerous commands"). `DANGEROUS_COMMAND_RE` is the original
 * combined expression; `DANGEROUS_COMMAND_FAMILIES` splits it into its three alternatives, so
 * a text matches the combined expression iff it matches at least one family. The expressions
 * run over the newline-joined commands, so `curl ...` on one line and `| sh` on a later one
 * still match (`[^|]*` spans newlines), as in the original.
 */
export const DANGEROUS_COMMAND_RE =
  /\b(rm\s+-rf|git\s+reset\s+--hard|curl\s+[^|]*\|\s*(sh|bash))\b/;

export const DANGEROUS_COMMAND_FAMILIES: readonly { name: string; re: RegExp }[] = [
  { name: "rm -rf", re: /\brm\s+-rf\b/ },
  { name: "git reset --hard", re: /\bgit\s+reset\s+--hard\b/ },
  { name: "curl | sh", re: /\bcurl\s+[^|]*\|\s*(sh|bash)\b/ },
];

/** Names of the dangerous families found in the commands. */
export function dangerousFamilies(commands: readonly string[]): string[] {
  const text = commands.join("\n");
  return DANGEROUS_COMMAND_FAMILIES.filter((f) => f.re.test(text)).map((f) => f.name);
}
