import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";

/**
 * `skillbench init`: a working starting point that passes `validate` and runs offline at
 * once (its model script plays the agent). Either a suite with a Skill and its manifest,
 * or (with --skill) an eval.yaml for an existing Skill. Nothing is overwritten.
 */

export interface InitResult {
  dir: string;
  files: string[];
  /** Commands to try next, in order. */
  next: string[];
}

const SKILL_MD = `---
name: house-greeting
description: Writes greetings the house way. Use it whenever you are asked to greet someone or write a greeting file.
---

# House greeting

When asked to write a greeting:

1. Write exactly \`Hello, <name>!\` (one line, with the exclamation mark) to the file named in the request.
2. Do not add anything else to the file.
`;

const MANIFEST = `# The Skill's eval manifest: \`skillbench eval skills/house-greeting\` reads it.
# Format: docs/manifest.md (the comet.eval/v1alpha1 SkillEvalManifest; camelCase or snake_case keys).
apiVersion: comet.eval/v1alpha1
kind: SkillEvalManifest
metadata:
  name: house-greeting-eval
  description: Does the house-greeting Skill make the agent greet the house way?
skill:
  name: house-greeting
  profile: generic
evaluation:
  # trials: 5                     # repetitions of each task × treatment (default 5)
  # baselineTreatments:           # earlier versions, frozen: a folder or a git ref
  #   - {name: PREVIOUS, git: HEAD~1}
  qualityGates:                   # decide eval's exit code (the Skill as it is now)
    minPassRate: 0.8
    minPassHat2: 0.5              # pass^2: both of 2 runs pass
  tasks:
    - name: greet-ada
      prompt: Write a greeting for Ada to greeting.txt.
      workspace:
        NOTES.md: "Greetings go in greeting.txt.\\n"
      expect:
        files: [greeting.txt]
        contains:
          greeting.txt: ["^Hello, Ada!$"]
        skillInvoked: true
      solution:                   # what a right answer leaves: \`skillbench check\` runs it
        files:
          greeting.txt: "Hello, Ada!\\n"
`;

const TASK_TOML = `# One task of the suite. Every field: README.md "task.toml".
[metadata]
name = "hello-file"
description = "Write the standard greeting file"
difficulty = "easy"

[validation]
test_scripts = ["check_hello.py"]
target_artifacts = ["hello.txt"]

[evaluation]
profile = "generic"
`;

const INSTRUCTION = `Create a file named hello.txt that greets skillbench.
`;

const VALIDATOR = `"""Checks hello.txt after the agent has finished (the agent never sees this file)."""
import json

passed, failed = [], []
try:
    text = open("hello.txt", encoding="utf-8").read()
except OSError:
    text = None

if text is None:
    failed.append("hello_exists: hello.txt was not written")
else:
    passed.append("hello_exists")
    if text == "Hello, skillbench!\\n":
        passed.append("hello_exact")
    else:
        failed.append(f"hello_exact: expected 'Hello, skillbench!\\\\n', got {text!r}")

print(json.dumps({"passed": passed, "failed": failed}))
`;

const SOLUTION = `#!/usr/bin/env bash
# The reference solution: \`skillbench check\` runs it in a fresh workspace, and the validators
# must pass on what it leaves (and fail on the untouched workspace). docs/health.md.
set -euo pipefail
printf 'Hello, skillbench!\\n' > hello.txt
`;

const TREATMENTS = `# Treatments: CONTROL (no Skill) always exists.
CONTROL:
  description: No skills baseline
WITH_SKILL:
  description: The house-greeting Skill
  skills:
    - ../skills/house-greeting
`;

const CONFIG = `# Defaults for \`skillbench run\` on this suite (flags win).
count: 2
model_script: model-script.yaml
`;

const MODEL_SCRIPT = `# The scripted model: plays the agent offline, so that this suite and the Skill's eval run
# at once, with no API key. With the Skill installed the agent follows it; without it, it
# guesses. Replace it with a real endpoint (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL) to
# evaluate for real. Format: docs/model-script.md.
version: 1
defaults:
  model: claude-scripted-starter
  usage: {input_tokens: 200, output_tokens: 20}
rules:
  - name: hello-with-skill
    when: {task: hello-file, skill: house-greeting}
    steps:
      - tool_use: {name: Skill, input: {skill: house-greeting}}
      - tool_use: {name: Write, input: {file_path: hello.txt, content: "Hello, skillbench!\\n"}}
      - text: "Wrote hello.txt the house way."
  - name: hello-control
    when: {task: hello-file}
    steps:
      - tool_use: {name: Write, input: {file_path: hello.txt, content: "hi skillbench\\n"}}
      - text: "Wrote hello.txt."
  - name: greet-with-skill
    when: {task: greet-ada, skill: house-greeting}
    steps:
      - tool_use: {name: Skill, input: {skill: house-greeting}}
      - tool_use: {name: Write, input: {file_path: greeting.txt, content: "Hello, Ada!\\n"}}
      - text: "Greeted Ada."
  - name: greet-control
    when: {task: greet-ada}
    steps:
      - tool_use: {name: Write, input: {file_path: greeting.txt, content: "Hi Ada\\n"}}
      - text: "Greeted Ada."
`;

const README = `# A skillbench starting point

- \`skills/house-greeting/\`: a Skill, with its eval manifest \`eval.yaml\`.
- \`tasks/hello-file/\`: a task (instruction, settings, a Python validator), \`treatments/\`: CONTROL
  and WITH_SKILL, \`skillbench.yaml\`: the suite's defaults, \`model-script.yaml\`: the scripted
  model that plays the agent offline.

Try:

    npx skillbench validate .
    npx skillbench eval skills/house-greeting --model-script model-script.yaml
    npx skillbench run .

Then edit the Skill, the tasks and the gates, and point skillbench at a real model.
`;

function manifestFor(name: string, profile: string): string {
  return `# ${name}'s eval manifest: \`skillbench eval <this folder>\` reads it.
# Format: docs/manifest.md (the comet.eval/v1alpha1 SkillEvalManifest; camelCase or snake_case keys).
apiVersion: comet.eval/v1alpha1
kind: SkillEvalManifest
metadata:
  name: ${name}-eval
skill:
  name: ${name}
  profile: ${profile}
evaluation:
  # trials: 5
  # baselineTreatments:
  #   - {name: PREVIOUS, git: HEAD~1}     # the Skill as it was one commit ago, frozen
  qualityGates:
    minPassRate: 0.8
    # noRegression: true                # against the baseline above
  tasks:
    # One task per situation the Skill is for. Write the request as a user would.
    - name: first-task
      prompt: Describe what you would do here, then write the result to RESULT.md.
      # workspace: fixtures/first-task   # a folder copied into the workspace (or inline files)
      expect:
        files: [RESULT.md]
        # contains: {RESULT.md: ["^# "]}
        # commands: [{run: "npm test", timeout: 300}]
        skillInvoked: true
`;
}

async function exists(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null)) !== null;
}

async function writeAll(dir: string, files: Record<string, string>): Promise<string[]> {
  const clash: string[] = [];
  for (const rel of Object.keys(files))
    if (await exists(path.join(dir, rel))) clash.push(path.join(dir, rel));
  if (clash.length > 0)
    throw new InputError(`init never overwrites: ${clash.join(", ")} already exist(s)`, {
      file: clash[0],
    });
  const out: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const f = path.join(dir, rel);
    await mkdir(path.dirname(f), { recursive: true });
    await writeFile(f, text);
    out.push(f);
  }
  return out;
}

/** A starter suite in `dir`. */
export async function initSuite(dir: string): Promise<InitResult> {
  const abs = path.resolve(dir);
  const files = await writeAll(abs, {
    "README.md": README,
    "skillbench.yaml": CONFIG,
    "model-script.yaml": MODEL_SCRIPT,
    "skills/house-greeting/SKILL.md": SKILL_MD,
    "skills/house-greeting/eval.yaml": MANIFEST,
    "tasks/hello-file/task.toml": TASK_TOML,
    "tasks/hello-file/instruction.md": INSTRUCTION,
    "tasks/hello-file/validation/check_hello.py": VALIDATOR,
    "tasks/hello-file/solution/solve.sh": SOLUTION,
    "treatments/treatments.yaml": TREATMENTS,
  });
  const rel = path.relative(process.cwd(), abs) || ".";
  return {
    dir: abs,
    files,
    next: [
      `npx skillbench validate ${rel}`,
      `npx skillbench check ${rel}`,
      `npx skillbench eval ${path.join(rel, "skills/house-greeting")} --model-script ${path.join(rel, "model-script.yaml")}`,
      `npx skillbench run ${rel}`,
    ],
  };
}

/** An eval.yaml for an existing Skill (named from its SKILL.md). */
export async function initSkillManifest(skillDir: string): Promise<InitResult> {
  const abs = path.resolve(skillDir);
  const text = await readFile(path.join(abs, "SKILL.md"), "utf8").catch(() => null);
  if (text === null)
    throw new InputError(`${abs}: not a Skill folder (no SKILL.md)`, {
      file: abs,
      field: "--skill",
    });
  for (const c of ["eval.yaml", "eval.yml", "comet/eval.yaml", "comet/eval.yml"])
    if (await exists(path.join(abs, c)))
      throw new InputError(`${path.join(abs, c)}: this Skill already has an eval manifest`, {
        file: path.join(abs, c),
      });
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const name =
    /^name:\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*$/m.exec(fm)?.[1] ??
    path.basename(abs).replace(/_/g, "-");
  const files = await writeAll(abs, { "eval.yaml": manifestFor(name, "generic") });
  const rel = path.relative(process.cwd(), abs) || ".";
  return {
    dir: abs,
    files,
    next: [
      `edit ${path.join(rel, "eval.yaml")}: the tasks and what each run must leave behind`,
      `npx skillbench validate ${rel}`,
      `npx skillbench eval ${rel} --dry-run`,
      `npx skillbench eval ${rel}`,
    ],
  };
}
