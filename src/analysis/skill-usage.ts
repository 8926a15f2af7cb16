/**
 * Depth of use of an installed Skill (issue #37 item 1, docs/evidence.md "Depth of use"): which
 * of its files the run read, which of its scripts it ran, and the share of its files used. From
 * the normalised evidence only (every decoder's `files_read`, `commands_run` and
 * `skills_invoked`), so every agent is judged alike. Pure: the Skill's file list is handed in.
 */
import path from "node:path";
import type { Evidence } from "../core/evidence.js";
import type { SkillUsage } from "../core/report.js";
import { findSkillPaths } from "../evidence/paths.js";

/** One Skill the run installed: its name, its files (Skill-relative) and its declared key files. */
export interface InstalledSkillFiles {
  name: string;
  files: readonly string[];
  keyFiles?: readonly string[] | undefined;
}

type UsageEvidence = Pick<Evidence, "files_read" | "commands_run" | "skills_invoked">;

/**
 * Programs whose first operand is a script they run (`python x.py`, `bash x.sh`, `. x.sh`);
 * `python3.12` and the like match by their stem.
 */
const INTERPRETERS = new Set([
  "python",
  "python3",
  "py",
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "node",
  "nodejs",
  "deno",
  "bun",
  "ruby",
  "perl",
  "php",
  "tsx",
  "ts-node",
  "Rscript",
  "source",
  ".",
]);
/** Words in front of the program that leave it the program (`sudo python x.py`, `env A=1 ./x`). */
const WRAPPERS = new Set(["sudo", "env", "time", "exec", "nohup", "command", "npx"]);
/** Launchers whose `run` is followed by the script or the interpreter (`uv run x.py`). */
const RUNNERS = new Set(["uv", "deno", "bun", "poetry", "pipenv", "pdm"]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function isInterpreter(word: string): boolean {
  const base = path.posix.basename(word);
  return INTERPRETERS.has(base) || /^python\d+(?:\.\d+)?$/.test(base);
}

/**
 * A shell command as simple commands of words (quotes removed; `&&`, `||`, `;`, `|`, `&`,
 * parentheses and newlines split them). Enough to see which word is the program and which its operands; not a
 * shell: substitutions and redirections stay words.
 */
export function simpleCommands(command: string): string[][] {
  const out: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) out.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command.charAt(i);
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end < 0 ? command.length : end;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      while (j < command.length && command.charAt(j) !== '"') {
        if (command.charAt(j) === "\\" && j + 1 < command.length) j++;
        word += command.charAt(j);
        j++;
      }
      inWord = true;
      i = j;
    } else if (c === "\\" && i + 1 < command.length) {
      word += command.charAt(i + 1);
      inWord = true;
      i++;
    } else if (";|&\n()".includes(c)) endCommand();
    else if (c === " " || c === "\t") endWord();
    else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The Skill-relative path a word names, or null: a path under the Skill's folder in any agent's
 * Skills folder (`.claude/skills/<name>/…`, absolute or not; "" for the folder itself), or a
 * relative word while a `cd` has put the command inside that folder.
 */
function skillRelative(word: string, skill: string, cwd: string | null): string | null {
  for (const m of findSkillPaths(word)) {
    if (m.skill !== skill) continue;
    const norm = path.posix.normalize(m.path);
    const rest = new RegExp(`(?:^|/)\\.[^/]+/skills/${escapeRe(skill)}(?:/(.*))?$`).exec(norm);
    if (rest === null) continue;
    const r = (rest[1] ?? "").replace(/\/$/, "");
    return r === "." ? "" : r;
  }
  if (cwd === null || word === "" || /^[/~$-]/.test(word)) return null;
  const joined = path.posix.normalize(path.posix.join(cwd, word)).replace(/\/$/, "");
  if (joined === ".." || joined.startsWith("../")) return null;
  return joined === "." ? "" : joined;
}

/** The files of `skill` one shell command reads (names) and runs (as the program or a script operand). */
function commandUse(
  command: string,
  skill: string,
  files: ReadonlySet<string>,
  read: Set<string>,
  run: Set<string>,
): void {
  // The Skill-relative folder the command has `cd`-ed into, null when outside the Skill.
  let cwd: string | null = null;
  for (const words of simpleCommands(command)) {
    let i = 0;
    while (i < words.length && ASSIGNMENT.test(words[i] ?? "")) i++;
    while (i < words.length && WRAPPERS.has(words[i] ?? "")) {
      i++;
      while (i < words.length && ASSIGNMENT.test(words[i] ?? "")) i++;
    }
    if (RUNNERS.has(words[i] ?? "") && words[i + 1] === "run") i += 2;
    const program = words[i];
    if (program === undefined) continue;
    if (program === "cd") {
      const target = words[i + 1];
      cwd = target === undefined ? null : skillRelative(target, skill, cwd);
      continue;
    }
    let script: number | null = null;
    const asProgram = skillRelative(program, skill, cwd);
    if (asProgram !== null && files.has(asProgram)) run.add(asProgram);
    else if (isInterpreter(program)) {
      for (let j = i + 1; j < words.length; j++) {
        const w = words[j] ?? "";
        if (w === "-c" || /^-[a-z]*c$/.test(w)) {
          // `bash -c '<command>'`: the operand is a command of its own.
          const inner = words[j + 1];
          if (inner !== undefined) commandUse(inner, skill, files, read, run);
          script = j + 1;
          break;
        }
        if (w === "-m") break; // `python -m module`: no script operand
        if (w.startsWith("-")) continue;
        const rel = skillRelative(w, skill, cwd);
        if (rel !== null && files.has(rel)) run.add(rel);
        script = j;
        break;
      }
    }
    for (let j = i + 1; j < words.length; j++) {
      if (j === script) continue;
      const rel = skillRelative(words[j] ?? "", skill, cwd);
      if (rel !== null && files.has(rel)) read.add(rel);
    }
  }
}

/**
 * One Skill's use in one run. `files_read`: the files read by a read tool, named by a shell
 * command that does not run them (`cat`, `sed -n`, `head`, `grep`, `cp`…), and SKILL.md when the
 * agent invoked the Skill (its Skill tool loads it; Codex invokes by reading it). `scripts_run`:
 * the files a command runs, as its program (`./scripts/x.sh`) or as an interpreter's script
 * (`python scripts/x.py`, `bash …`, `uv run …`), paths relative to the Skill's folder after a
 * `cd` into it. Only files of the Skill's own list count (a folder listed or a path that is not
 * there is not a use); failed commands count (a script that exits 1 still ran). `coverage`: the
 * share of the Skill's files read or run.
 */
export function skillUsageOf(e: UsageEvidence, s: InstalledSkillFiles): SkillUsage {
  const files = new Set(s.files);
  const read = new Set<string>();
  const run = new Set<string>();
  const invoked = e.skills_invoked.includes(s.name);
  if (invoked && files.has("SKILL.md")) read.add("SKILL.md");
  for (const p of e.files_read) {
    const rel = skillRelative(p, s.name, null);
    if (rel !== null && files.has(rel)) read.add(rel);
  }
  for (const c of e.commands_run) commandUse(c, s.name, files, read, run);
  const ordered = [...s.files].sort();
  const used = ordered.filter((f) => read.has(f) || run.has(f)).length;
  return {
    skill: s.name,
    invoked,
    files_read: ordered.filter((f) => read.has(f)),
    scripts_run: ordered.filter((f) => run.has(f)),
    coverage: ordered.length === 0 ? 0 : used / ordered.length,
    files: ordered,
    ...(s.keyFiles?.length ? { key_files: [...s.keyFiles] } : {}),
  };
}

/** The run's use of each Skill it installed; undefined when it installed none (the report leaves it out). */
export function runSkillUsage(
  e: UsageEvidence | null,
  installed: readonly InstalledSkillFiles[],
): SkillUsage[] | undefined {
  if (e === null || installed.length === 0) return undefined;
  return installed.map((s) => skillUsageOf(e, s));
}
