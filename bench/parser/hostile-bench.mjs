#!/usr/bin/env node
// Memory on hostile inputs (docs/evidence.md "Long lines", docs/model-script.md "Large scripts"). Not a test.
//
//   node bench/parser/hostile-bench.mjs [--out bench/results/parser-hostile.md]
//
// Each case runs in its own child process against the built package (dist/); the figure is the
// child's peak RSS (getrusage maxrss), which includes node itself (~45 MB) and the loaded modules.
//   transcript  the agent's stdout as a run handles it: RedactingLineWriter (redaction, the stored
//               stdout.jsonl) feeding the live decoder, then parseEvidenceFile on the stored file
//   parse-file  parseEvidenceFile alone on the raw (uncapped) transcript (rescore of an old file)
//   script      loadModelScript on a 20 MB model script (68k rules), as YAML and as JSON
// Budget: 300 MB for each.
import { fork } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const dist = (rel) => pathToFileURL(path.join(root, "dist", rel)).href;
const BUDGET_MB = 300;
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};

// ---------------------------------------------------------------- child
if (process.argv[2] === "--child") {
  const [, , , mode, file, outFile] = process.argv;
  const t0 = performance.now();
  let info;
  if (mode === "transcript") {
    const { RedactingLineWriter } = await import(dist("util/redacting-writer.js"));
    const { makeRedactor } = await import(dist("util/redact.js"));
    const { EvidenceBuilder } = await import(dist("evidence/builder.js"));
    const { parseEvidenceFile } = await import(dist("evidence/index.js"));
    const { createReadStream } = await import("node:fs");
    const writer = new RedactingLineWriter(outFile, makeRedactor(["sk-bench-secret-0123456789"]));
    const live = new EvidenceBuilder({ toolTextBudget: 1_000_000 });
    writer.onLine = (l) => live.pushLine(l);
    // The agent's stdout arrives in 64 KB pieces, as from a pipe.
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16 }))
      writer.write(chunk);
    await writer.close();
    live.finish();
    const ev = await parseEvidenceFile(outFile, {});
    info = { tool_calls: ev.tool_calls.length, stored_mb: (await stat(outFile)).size / 1e6 };
  } else if (mode === "parse-file") {
    const { parseEvidenceFile } = await import(dist("evidence/index.js"));
    const ev = await parseEvidenceFile(file, {});
    info = { tool_calls: ev.tool_calls.length };
  } else {
    const { loadModelScript } = await import(dist("model/load-script.js"));
    const s = await loadModelScript(file);
    info = { rules: s.rules.length };
  }
  process.send({
    ms: performance.now() - t0,
    rssMb: process.resourceUsage().maxRSS / 1024,
    info,
  });
  process.exit(0);
}

// ---------------------------------------------------------------- inputs
async function writeLines(file, lines) {
  const out = createWriteStream(file);
  for (const o of lines()) {
    if (!out.write(`${JSON.stringify(o)}\n`)) await new Promise((r) => out.once("drain", r));
  }
  await new Promise((r) => out.end(r));
}

function* transcript(calls, size) {
  yield { type: "system", subtype: "init", cwd: "/ws", session_id: "s", model: "m" };
  const text = "y".repeat(size);
  for (let i = 0; i < calls; i++) {
    yield {
      type: "assistant",
      message: {
        id: `m${i}`,
        content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: "cat big" } }],
      },
      session_id: "s",
    };
    yield {
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: `t${i}`, content: text }] },
      session_id: "s",
    };
  }
  yield { type: "result", subtype: "success", is_error: false, result: "done", session_id: "s" };
}

function yamlScript(targetChars) {
  const parts = ["version: 1\nrules:\n"];
  let len = 0;
  for (let i = 0; len < targetChars; i++) {
    const r = `  - name: r${i}\n    when: {task: t${i}, treatment: T}\n    steps:\n      - text: "step one of rule ${i}"\n        write: {path: f${i}.txt, content: "content ${i} ${"abc ".repeat(20)}"}\n      - text: "done ${i}"\n`;
    parts.push(r);
    len += r.length;
  }
  return parts.join("");
}

function runChild(mode, file, outFile = "") {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--child", mode, file, outFile], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let msg = null;
    child.on("message", (m) => (msg = m));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 && msg ? resolve(msg) : reject(new Error(`${mode} exited ${code}`)),
    );
  });
}

// ---------------------------------------------------------------- main
const outFile = path.resolve(root, arg("--out", "bench/results/parser-hostile.md"));
const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-hostile-bench-"));
try {
  const two20 = path.join(dir, "two-20mb-lines.jsonl");
  const tool200 = path.join(dir, "200mb-tool-output.jsonl");
  const yaml = path.join(dir, "script.yaml");
  const json = path.join(dir, "script.json");
  await writeLines(two20, () => transcript(2, 20_000_000));
  await writeLines(tool200, () => transcript(200, 1_000_000));
  const y = yamlScript(20_000_000);
  await writeFile(yaml, y);
  const { parse } = await import("yaml");
  await writeFile(json, JSON.stringify(parse(y)));
  const cases = [
    ["transcript: two 20 MB lines", "transcript", two20],
    ["transcript: 200 MB of tool output (200 × 1 MB)", "transcript", tool200],
    ["parseEvidenceFile: two 20 MB lines (raw file)", "parse-file", two20],
    ["model script: 20 MB YAML", "script", yaml],
    ["model script: 20 MB JSON", "script", json],
  ];
  const rows = [];
  for (const [name, mode, file] of cases) {
    const m = await runChild(mode, file, path.join(dir, "stored.jsonl"));
    await rm(path.join(dir, "stored.jsonl"), { force: true });
    const mb = (await stat(file)).size / 1e6;
    console.log(
      `${name}: ${m.rssMb.toFixed(0)} MB peak RSS, ${(m.ms / 1000).toFixed(1)} s`,
      m.info,
    );
    rows.push(
      `| ${name} | ${mb.toFixed(0)} | ${m.rssMb.toFixed(0)} | ${m.rssMb <= BUDGET_MB ? "met" : "**not met**"} | ${(m.ms / 1000).toFixed(1)} | ${JSON.stringify(m.info).replace(/[{}"]/g, "")} |`,
    );
  }
  const md = [
    "# Memory on hostile inputs",
    "",
    `Generated by \`bench/parser/hostile-bench.mjs\` on ${new Date().toISOString().slice(0, 10)}: node ${process.version}, ${os.cpus().length} CPUs (shared machine: seconds are noisy; memory is not).`,
    `Peak RSS of a child process per case (node itself included). Budget: ${BUDGET_MB} MB each.`,
    "",
    "| case | input MB | peak RSS (MB) | budget | seconds | result |",
    "| --- | ---: | ---: | --- | ---: | --- |",
    ...rows,
    "",
    "Before this change (same inputs, measured by hand): a whole `skillbench run` of an agent printing two 20 MB lines",
    "peaked at 414 MB, 200 MB of tool output at 447 MB (after: 174 MB for both); loading the 20 MB YAML script took",
    "1,619 MB and 96 s. Lines over 4 million characters are streamed through a JSON string capper (strings kept to",
    "256,000 characters, with a `[skillbench: truncated N characters of a long line]` marker); large scripts are",
    "read as JSON, or as YAML a few rules at a time.",
    "",
  ].join("\n");
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, md);
  console.log(`\n${md}\nwritten to ${path.relative(root, outFile)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
