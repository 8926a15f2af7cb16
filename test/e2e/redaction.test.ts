/**
 * A key declared under a plain name (`--env CONFIG_BLOB=sk-ant-…`, issues 39.5 and 40.3) that
 * the agent writes out split over two lines, upper-cased, spaced out and gzip+base64: no saved
 * file of the run holds it in any of these forms (model log, transcript, events, workspace copy,
 * reports, both HTML pages).
 */
import { gzipSync } from "node:zlib";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, makeSandbox, runCli, type Sandbox } from "../helpers/cli.js";

const KEY = "sk-ant-api03-Qm7Xw9Lk2Np4Rt6Vb8Cd0EfGh";
const b64gz = gzipSync(`config: ${KEY}\n`.repeat(3)).toString("base64");

let box: Sandbox;
beforeAll(async () => {
  box = await makeSandbox("redaction");
});
afterAll(async () => {
  await box.remove();
});

/** The forms the agent writes, each as its own file and in its final text. */
const forms: Record<string, string> = {
  "split.txt": `${KEY.slice(0, 15)}\n${KEY.slice(15)}\n`,
  "upper.txt": `${KEY.toUpperCase()}\n`,
  "spaced.txt": `${[...KEY].join(" ")}\n`,
  "blob.txt": `${b64gz.replace(/(.{76})/g, "$1\n")}\n`,
};

describe("a declared --env value under a plain name", () => {
  it("is in no saved file, in any form the agent wrote it", async () => {
    const suite = path.join(box.root, "suite");
    await mkdir(path.join(suite, "tasks", "leak"), { recursive: true });
    await writeFile(path.join(suite, "tasks", "leak", "instruction.md"), "Write the config.\n");
    await writeFile(
      path.join(suite, "tasks", "leak", "task.toml"),
      '[metadata]\ndescription = "The agent writes a declared key out in several forms"\n',
    );
    const steps = [
      "      - tool_use: {name: Bash, input: {command: 'echo \"blob=$CONFIG_BLOB\"'}}",
      ...Object.entries(forms).map(
        ([file, content]) =>
          `      - tool_use: {name: Write, input: {file_path: ${file}, content: ${JSON.stringify(content)}}}`,
      ),
      `      - text: ${JSON.stringify(`Done: ${Object.values(forms).join(" | ")}`)}`,
    ];
    const script = path.join(box.root, "script.yaml");
    await writeFile(script, ["version: 1", "rules:", "  - steps:", ...steps, ""].join("\n"));
    const out = box.dir("out");
    const res = await runCli(
      [
        "run",
        suite,
        "--model-script",
        script,
        "--out",
        out,
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
        "--env",
        `CONFIG_BLOB=${KEY}`,
      ],
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    const files = await filesUnder(out);
    for (const f of ["model-requests.jsonl", "summary.html", "runs/leak-CONTROL-r1/stdout.jsonl"])
      expect(files).toContain(f);
    for (const f of Object.keys(forms))
      expect(files).toContain(`runs/leak-CONTROL-r1/workspace/${f}`);
    const leaks: string[] = [];
    const loose = KEY.toLowerCase();
    for (const rel of files) {
      const text = await readFile(path.join(out, rel), "utf8");
      // Letter case, whitespace and escaped line breaks aside.
      const flat = text
        .toLowerCase()
        .replace(/\\[nrt]/g, "")
        .replace(/\s+/g, "");
      if (flat.includes(loose)) leaks.push(`${rel}: the key`);
      if (text.includes(b64gz.slice(0, 40))) leaks.push(`${rel}: the gzip+base64 blob`);
    }
    expect(leaks).toEqual([]);
    // The Bash step's output was saved, redacted.
    const stdout = await readFile(path.join(out, "runs/leak-CONTROL-r1/stdout.jsonl"), "utf8");
    expect(stdout).toContain("blob=[REDACTED]");
    expect(res.stdout + res.stderr).not.toContain(KEY);
  });
});
