import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** How to start one validator script: an absolute executable and its arguments. */
export interface ValidatorCommand {
  file: string;
  args: string[];
}

/** Validator file extensions skillbench knows how to run. */
const VALIDATOR_EXTENSIONS = [".py", ".js", ".mjs", ".cjs", ".ts", ".sh"] as const;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Find `name` on a PATH string; null when absent. */
function findOnPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

let tsxCli: string | null | undefined;

/** This package's tsx CLI (resolved once); null when it cannot be found. */
function resolveTsxCli(): string | null {
  if (tsxCli === undefined) {
    try {
      tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
    } catch {
      tsxCli = null;
    }
  }
  return tsxCli;
}

/**
 * The command that runs `scriptArg` (a path relative to the validator's cwd) by extension:
 * `.py` python3, `.js`/`.mjs`/`.cjs` node (this Node), `.ts` this package's tsx run by this
 * Node, `.sh` bash. Interpreters are looked up on `pathVar` (the validator env's PATH, else the
 * host PATH): the lookup never adds anything to the validator's environment.
 * Returns an error string when the extension is unsupported or the interpreter is missing.
 */
export function validatorCommand(
  scriptArg: string,
  pathVar: string | undefined,
): ValidatorCommand | { error: string } {
  const ext = path.extname(scriptArg).toLowerCase();
  switch (ext) {
    case ".py": {
      const py = findOnPath("python3", pathVar);
      return py ? { file: py, args: [scriptArg] } : { error: "python3 not found on PATH" };
    }
    case ".js":
    case ".mjs":
    case ".cjs":
      return { file: process.execPath, args: [scriptArg] };
    case ".ts": {
      const cli = resolveTsxCli();
      return cli
        ? { file: process.execPath, args: [cli, scriptArg] }
        : { error: "tsx is not installed" };
    }
    case ".sh": {
      const bash = findOnPath("bash", pathVar);
      return bash ? { file: bash, args: [scriptArg] } : { error: "bash not found on PATH" };
    }
    default:
      return {
        error: `unsupported validator type "${ext || "(none)"}" (use ${VALIDATOR_EXTENSIONS.join(" ")})`,
      };
  }
}
