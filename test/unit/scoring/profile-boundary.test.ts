/**
 * A profile is a package (issue 33, item 2): outside its folder and the manifest format
 * (`src/manifest/`, which reads a Skill's `comet/eval.yaml`), no source names the comet-workflow
 * profile except as data, so the core reaches it only through the registry and its hooks. The
 * same as `grep -ril comet src`, line by line, against a short list of data uses.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../../src/", import.meta.url));
const OWN = ["scoring/profiles/comet-workflow/", "manifest/"];
const NAME = /comet/i;

/** The data uses: a file, what its line holds, and why that is data, not code about the profile. */
const DATA: readonly { file: string; line: RegExp; why: string }[] = [
  {
    file: "telemetry/langfuse.ts",
    line: /comet\.(eval\.experiment|passed|checks_pass_rate|rubric\.|pass_at_k|pass_power_k|quality_gate|\$\{name\})/,
    why: "the Langfuse score and trace names (docs/telemetry.md)",
  },
  {
    file: "core/judge.ts",
    line: /prompt_kind: z\.enum\(\["generic", "comet"\]\)|instruction_adherence, custom_N\) or `comet`/,
    why: "the report's judge prompt_kind value",
  },
  {
    file: "judge/env.ts",
    line: /COMET_EVAL_AGENT_ROLE: "judge"/,
    why: "the role variable an agent judge is given",
  },
  {
    file: "judge/transport-agent.ts",
    line: /COMET_EVAL_AGENT_ROLE: "judge"/,
    why: "the role variable an agent judge is given",
  },
  { file: "judge/dump-text.ts", line: /^\s*"\.comet",$/, why: "a folder the dump leaves out" },
  {
    file: "suite/skills.ts",
    line: /"\.comet"|`\.comet`/,
    why: "a folder left out of a Skill's hash and copy",
  },
  {
    file: "analysis/attribution.ts",
    line: /\\\.comet\\\.yaml/,
    why: "a state-file name in the attribution rule table",
  },
  {
    file: "cli/commands/eval.ts",
    line: /comet\/eval\.yaml/,
    why: "the manifest's location, in the help text",
  },
  {
    file: "cli/commands/inspect.ts",
    line: /comet\/eval\.yaml/,
    why: "the manifest's location, in the help text",
  },
  {
    file: "scoring/profiles/authoring-skill/profile.ts",
    line: /"comet"|comet\//,
    why: "the engine folder of the Skill package the authoring rubric checks",
  },
  {
    file: "scoring/registry.ts",
    line: /^import \{ cometWorkflowProfile \} from "\.\/profiles\/comet-workflow\/index\.js";$|^\s*cometWorkflowProfile,$/,
    why: "the registration: the one place that lists the built-ins",
  },
];

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Every `file: line` naming comet outside the profile's folder and the manifest. */
function namings(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const abs of walk(SRC)) {
    const file = path.relative(SRC, abs).split(path.sep).join("/");
    if (OWN.some((o) => file.startsWith(o))) continue;
    readFileSync(abs, "utf8")
      .split("\n")
      .forEach((text) => {
        if (NAME.test(text)) out.push({ file, text });
      });
  }
  return out;
}

describe("comet-workflow is a package", () => {
  const found = namings();

  it("no file outside its folder and src/manifest/ names it but as listed data", () => {
    const unlisted = found
      .filter((n) => !DATA.some((d) => d.file === n.file && d.line.test(n.text)))
      .map((n) => `${n.file}: ${n.text.trim()}`);
    expect(unlisted).toEqual([]);
  });

  it("every data use listed is still there (the list stays short and true)", () => {
    const unused = DATA.filter((d) => !found.some((n) => n.file === d.file && d.line.test(n.text)));
    expect(unused.map((d) => `${d.file}: ${d.why}`)).toEqual([]);
  });
});
