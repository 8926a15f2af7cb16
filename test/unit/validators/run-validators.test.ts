import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runValidators } from "../../../src/validators/index.js";
import type { RunValidatorsOptions } from "../../../src/validators/index.js";

let root: string;
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "sb-validators-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: root,
  LANG: "C",
});

/** A fresh workspace with the given files under validation/ and at the root. */
async function workspace(
  validation: Record<string, string>,
  files: Record<string, string> = {},
): Promise<string> {
  const ws = path.join(root, `ws${++counter}`);
  await mkdir(path.join(ws, "validation"), { recursive: true });
  for (const [name, text] of Object.entries(validation))
    await writeFile(path.join(ws, "validation", name), text);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(ws, name)), { recursive: true });
    await writeFile(path.join(ws, name), text);
  }
  return ws;
}

/** Linux: true when the process exists and is not a zombie. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

function run(ws: string, scripts: string[], extra: Partial<RunValidatorsOptions> = {}) {
  return runValidators({
    workspace: ws,
    scripts,
    targetArtifacts: [],
    timeoutSec: 30,
    env: baseEnv(),
    context: { run_id: "r1", required_skills: ["hello"] },
    ...extra,
  });
}

describe("runValidators: one validator per language", () => {
  it.each<[string, string, string[], string[]]>([
    [
      "check.py",
      [
        "import json",
        'ctx = json.load(open("_test_context.json"))',
        'json.dump({"passed": ["run_id=" + ctx["run_id"]], "failed": ["py failed"]}, open("_test_results.json", "w"))',
        'print("not the result")',
      ].join("\n"),
      ["run_id=r1"],
      ["py failed"],
    ],
    [
      "check.js",
      'console.log("log line");\nconsole.log(JSON.stringify({ passed: ["js ok"], failed: ["js bad"] }));\nprocess.exit(1);\n',
      ["js ok"],
      ["js bad"],
    ],
    [
      "check.mjs",
      'import { readFileSync } from "node:fs";\nconst ctx = JSON.parse(readFileSync("_test_context.json", "utf8"));\nconsole.log(JSON.stringify({ checks: [{ name: "skills", status: "ok", message: ctx.required_skills.join(",") }, { check: "x", status: "FAILED", reason: "nope" }] }));\n',
      ["skills: hello"],
      ["x: nope"],
    ],
    [
      "check.cjs",
      'const fs = require("node:fs");\nfs.writeFileSync("_test_results.json", JSON.stringify({ passed: ["cjs ok"] }));\n',
      ["cjs ok"],
      [],
    ],
    [
      "check.ts",
      'interface R { passed: string[]; failed: string[] }\nconst r: R = { passed: ["ts ok"], failed: [] };\nconsole.log(JSON.stringify(r, null, 2));\n',
      ["ts ok"],
      [],
    ],
    [
      "check.sh",
      'echo "building..."\necho \'{"passed":["sh ok"],"failed":["sh bad"]}\'\nexit 3\n',
      ["sh ok"],
      ["sh bad"],
    ],
  ])("%s", async (script, source, passed, failed) => {
    const ws = await workspace({ [script]: source });
    const report = await run(ws, [script]);
    expect(report.scripts).toHaveLength(1);
    expect(report.scripts[0]?.status).toBe("ok");
    expect(report.passed).toEqual(passed);
    expect(report.failed).toEqual(failed);
  });
});

describe("runValidators: failures are checks", () => {
  it("times out a hanging validator and kills its process group", async () => {
    const ws = await workspace({ "hang.sh": "sleep 300 &\necho $! > child.pid\nwait\n" });
    const report = await run(ws, ["hang.sh"], { timeoutSec: 1 });
    expect(report.scripts[0]?.status).toBe("timeout");
    expect(report.failed).toEqual(["Validator timed out after 1s: hang.sh"]);
    const pid = Number((await readFile(path.join(ws, "child.pid"), "utf8")).trim());
    // The grandchild held stdout open, so it has exited once the run ends: gone, or a zombie
    // not yet reaped by its new parent.
    expect(await isRunning(process.pid)).toBe(true);
    expect(await isRunning(pid)).toBe(false);
  });

  it("reports a crash with the last meaningful line of stderr", async () => {
    const ws = await workspace({ "crash.py": 'print("working")\n1/0\n' });
    const report = await run(ws, ["crash.py"]);
    const out = report.scripts[0];
    expect(out?.status).toBe("crashed");
    expect(out?.exit_code).toBe(1);
    expect(report.failed).toEqual([
      "Validator crashed (exit 1): crash.py: ZeroDivisionError: division by zero",
    ]);
    expect(out?.stdout).toBe("working\n");
  });

  it.each([
    [
      "stderr with underline lines and escapes after the cause",
      "printf '\\033[31mboom: no module named helpers\\033[0m\\n   ^^^^^\\n\\n' >&2\nexit 3\n",
      "Validator crashed (exit 3): c.sh: boom: no module named helpers",
    ],
    [
      "stdout when stderr is empty",
      "echo 'python3: executable file not found in $PATH'\necho\nexit 126\n",
      "Validator crashed (exit 126): c.sh: python3: executable file not found in $PATH",
    ],
    ["no output at all", "exit 4\n", "Validator crashed (exit 4): c.sh: no output"],
  ])("names the cause of a crash from %s", async (_what, body, message) => {
    const ws = await workspace({ "c.sh": body });
    expect((await run(ws, ["c.sh"])).failed).toEqual([message]);
  });

  it("cuts a long cause to 300 characters", async () => {
    const ws = await workspace({
      "noisy.sh": `printf 'A%.0s' $(seq 1 500) >&2\nprintf 'END' >&2\nexit 2\n`,
    });
    const report = await run(ws, ["noisy.sh"]);
    const prefix = "Validator crashed (exit 2): noisy.sh: ";
    expect(report.failed[0]).toBe(`${prefix}${"A".repeat(297)}...`);
  });

  it("sets $WORKSPACE to the workspace (a sandbox maps it to /workspace)", async () => {
    const ws = await workspace({
      "w.sh": 'printf \'{"passed":["ws=%s"]}\' "$WORKSPACE"\n',
    });
    expect((await run(ws, ["w.sh"])).passed).toEqual([`ws=${path.resolve(ws)}`]);
  });

  it("reports a validator that prints nothing", async () => {
    const ws = await workspace({ "quiet.js": "" });
    const report = await run(ws, ["quiet.js"]);
    expect(report.scripts[0]?.status).toBe("no_json");
    expect(report.scripts[0]?.exit_code).toBe(0);
    expect(report.failed).toEqual(["Validator printed no JSON: quiet.js"]);
  });

  it("deletes a stale results file before each script", async () => {
    const ws = await workspace(
      { "quiet.sh": "exit 0\n" },
      { "_test_results.json": '{"passed":["stale"]}' },
    );
    const report = await run(ws, ["quiet.sh"]);
    expect(report.scripts[0]?.status).toBe("no_json");
    expect(report.passed).toEqual([]);
  });

  it("turns an error result without checks into a failure", async () => {
    const ws = await workspace({
      "err.js": 'console.log(JSON.stringify({ error: "fixture missing" }));\n',
    });
    const report = await run(ws, ["err.js"]);
    expect(report.scripts[0]?.status).toBe("ok");
    expect(report.failed).toEqual(["Test execution error (err.js): fixture missing"]);
  });

  it.each<[string, Record<string, string>, Partial<RunValidatorsOptions>, string]>([
    [
      "missing.py",
      {},
      {},
      "Validator could not start: missing.py: no such file: validation/missing.py",
    ],
    [
      "../escape.py",
      {},
      {},
      "Validator could not start: ../escape.py: path is absolute or escapes the validation folder",
    ],
    [
      "/etc/passwd",
      {},
      {},
      "Validator could not start: /etc/passwd: path is absolute or escapes the validation folder",
    ],
    [
      "check.rb",
      { "check.rb": "puts 1" },
      {},
      'Validator could not start: check.rb: unsupported validator type ".rb" (use .py .js .mjs .cjs .ts .sh)',
    ],
    [
      "check.py",
      { "check.py": "print(1)" },
      { env: { PATH: path.join(os.tmpdir(), "sb-no-such-dir") } },
      "Validator could not start: check.py: python3 not found on PATH",
    ],
  ])("cannot start %s", async (script, files, extra, message) => {
    const ws = await workspace(files);
    const report = await run(ws, [script], extra);
    expect(report.scripts[0]?.status).toBe("spawn_error");
    expect(report.failed).toEqual([message]);
  });

  it("runs every script in order and concatenates their checks", async () => {
    const ws = await workspace({
      "a.sh": 'echo \'{"passed":["a"]}\'\n',
      "b.js": 'console.log(JSON.stringify({ failed: ["b"] }));\n',
    });
    const report = await run(ws, ["a.sh", "missing.sh", "b.js"]);
    expect(report.scripts.map((s) => s.status)).toEqual(["ok", "spawn_error", "ok"]);
    expect(report.passed).toEqual(["a"]);
    expect(report.failed).toEqual([
      "Validator could not start: missing.sh: no such file: validation/missing.sh",
      "b",
    ]);
  });
});

describe("runValidators: environment and redaction", () => {
  it("gives the validator exactly the env it was given", async () => {
    const ws = await workspace({
      "env.js": "console.log(JSON.stringify({ passed: Object.keys(process.env).sort() }));\n",
    });
    const env = { PATH: process.env.PATH ?? "/usr/bin", ONLY_THIS: "1" };
    const report = await run(ws, ["env.js"], { env });
    // ... plus $WORKSPACE, which skillbench adds for every validator, and the marker by which
    // what the validator leaves running is found and killed.
    expect(report.passed).toEqual(["ONLY_THIS", "PATH", "SKILLBENCH_RUN_MARKER", "WORKSPACE"]);
  });

  it("redacts output, messages and raw results", async () => {
    const ws = await workspace({
      "leak.js":
        'console.error("token s3cr3t-value");\nconsole.log(JSON.stringify({ passed: ["saw s3cr3t-value"], extra: { k: "s3cr3t-value" } }));\n',
    });
    const redact = (s: string): string => s.replaceAll("s3cr3t-value", "[REDACTED]");
    const report = await run(ws, ["leak.js"], { redact });
    const out = report.scripts[0];
    expect(report.passed).toEqual(["saw [REDACTED]"]);
    expect(out?.stderr).toBe("token [REDACTED]\n");
    expect(out?.stdout).not.toContain("s3cr3t");
    expect(out?.raw_result).toEqual({ passed: ["saw [REDACTED]"], extra: { k: "[REDACTED]" } });
  });

  it("writes the context file", async () => {
    const ws = await workspace({ "ok.sh": 'echo \'{"passed":["x"]}\'\n' });
    await run(ws, ["ok.sh"], { context: { run_id: "abc", n: 10n } });
    expect(JSON.parse(await readFile(path.join(ws, "_test_context.json"), "utf8"))).toEqual({
      run_id: "abc",
      n: "10",
    });
  });
});

describe("runValidators: target_artifacts pre-check", () => {
  const marker = 'echo ran > ran.txt\necho \'{"passed":["script ran"]}\'\n';

  it("runs the scripts when every target exists (globs included)", async () => {
    const ws = await workspace(
      { "v.sh": marker },
      { "out/report.md": "x", ".config/app.json": "{}" },
    );
    const report = await run(ws, ["v.sh"], {
      targetArtifacts: ["out/*.md", ".config/app.json", "**/*.json"],
    });
    expect(report.artifacts.map((a) => [a.path, a.found, a.matches])).toEqual([
      ["out/*.md", true, ["out/report.md"]],
      [".config/app.json", true, [".config/app.json"]],
      ["**/*.json", true, [".config/app.json"]],
    ]);
    expect(report.passed).toEqual(["script ran"]);
    expect(report.failed).toEqual([]);
  });

  it("fails each missing target and runs no script", async () => {
    const ws = await workspace({ "v.sh": marker }, { "out/report.md": "x" });
    const report = await run(ws, ["v.sh"], {
      targetArtifacts: ["out/report.md", "dist/*.js", "missing.txt", "../x"],
    });
    expect(report.scripts).toEqual([]);
    expect(report.passed).toEqual([]);
    expect(report.failed).toEqual([
      "Artifact not found: dist/*.js",
      "Artifact not found: missing.txt",
      "Artifact not found: ../x (path escapes the workspace)",
    ]);
    await expect(readFile(path.join(ws, "ran.txt"), "utf8")).rejects.toThrow();
  });
});

describe("runValidators: abort and bad options", () => {
  it("rejects when aborted before starting", async () => {
    const ws = await workspace({ "v.sh": "echo {}\n" });
    await expect(
      run(ws, ["v.sh"], { signal: AbortSignal.abort(new Error("stop")) }),
    ).rejects.toThrow("stop");
  });

  it.each([0, -1, Number.NaN])("refuses timeoutSec %s", async (timeoutSec) => {
    const ws = await workspace({});
    await expect(run(ws, [], { timeoutSec })).rejects.toThrow(
      /validation timeout must be a positive number/,
    );
  });
});
