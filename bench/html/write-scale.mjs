// Benchmark (not a test): what writing the two HTML pages costs on large results folders.
// For each folder: `skillbench report DIR` (HTML included) and `report DIR --no-html`, each run
// twice after a first `report DIR --no-html` that builds the run index, under /usr/bin/time:
// peak RSS, wall and CPU seconds, and the 1-minute load average when each ended. The HTML's
// share is the difference. Run it on copies (`cp -al` hard-links a synthetic folder):
//
//   node bench/html/write-scale.mjs DIR [DIR...]
//
// Targets (issue #19): with HTML under 400 MB at 10,000 runs; at 100,000 runs the pages add
// memory that does not grow with the runs (they are written a chunk of runs at a time).
// Writes its section of bench/results/html.md (between the write-scale markers).
import { spawnSync } from "node:child_process";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = path.join(ROOT, "dist", "cli", "main.js");
const RESULTS = path.join(ROOT, "bench", "results", "html.md");
const BEGIN = "<!-- write-scale: begin (bench/html/write-scale.mjs) -->";
const END = "<!-- write-scale: end -->";

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error("usage: node bench/html/write-scale.mjs DIR [DIR...]");
  process.exit(2);
}

function timed(args) {
  const r = spawnSync("/usr/bin/time", ["-f", "%M %e %U %S", process.execPath, CLI, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`report ${args.join(" ")} failed: ${r.stderr}`);
  const [kb, wall, user, sys] = r.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { mb: kb / 1024, wall, cpu: user + sys, load: loadavg()[0] };
}

const rows = [];
for (const dir of dirs) {
  const runs = (await readdir(path.join(dir, "runs"))).length;
  timed(["report", dir, "--no-html"]); // builds the run index when missing
  for (const [label, args] of [
    ["report (HTML included)", ["report", dir]],
    ["report --no-html", ["report", dir, "--no-html"]],
  ])
    for (let k = 0; k < 2; k++) {
      const t = timed(args);
      rows.push([
        runs.toLocaleString("en-US"),
        label,
        t.mb.toFixed(0),
        t.wall.toFixed(2),
        t.cpu.toFixed(2),
        t.load.toFixed(1),
      ]);
      console.log(rows.at(-1).join(" | "));
    }
}

const section = [
  BEGIN,
  "## Writing the HTML pages at scale",
  "",
  `Measured ${new Date().toISOString().slice(0, 16)}Z with \`node bench/html/write-scale.mjs DIR...\` on copies of the synthetic folders of bench/scale (report.json files of a real demo run, ids and outcomes changed); node ${process.version}, 2 cores shared with other work (last column: 1-minute load average when the command ended; CPU seconds are the steadier figure). The pages are written a piece at a time (the run table and the comparison's per-run rows a chunk of 1,000 runs at a time); summary.html and comparison_report.html are byte-identical to those of the code that built them as one string (with the same client script).`,
  "",
  "| Runs | Command | Peak RSS MB | Wall s | CPU s | Load |",
  "|---:|---|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
  "",
  END,
].join("\n");
let text = "";
try {
  text = await readFile(RESULTS, "utf8");
} catch {
  // first section of a new file
}
const a = text.indexOf(BEGIN);
const b = text.indexOf(END);
text =
  a >= 0 && b > a
    ? `${text.slice(0, a)}${section}${text.slice(b + END.length)}`
    : `${text.trimEnd()}\n\n${section}\n`;
await writeFile(RESULTS, text);
console.log(section);
