// `npm test`'s checks before the tests: the build, then the type checks, the linter, the
// dead-code check and the formatter check side by side. Each check is one single-threaded
// process (tsc, typed ESLint ~110 CPU-s, knip, prettier); run one after another they kept a
// 2-core CI machine half idle for over three minutes. Each check's output is printed whole,
// in a fixed order, once it ends; any failure fails `npm test` after every check has reported.
import { spawn } from "node:child_process";

/** Runs one npm script, its output kept until it ends. */
function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "-s", script], {
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    const out = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => out.push(c));
    child.on("error", (e) => resolve({ script, code: 1, output: `${e.message}\n`, started }));
    child.on("close", (code, signal) =>
      resolve({
        script,
        code: code ?? 1,
        output: Buffer.concat(out).toString("utf8") + (signal ? `killed by ${signal}\n` : ""),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

function report(r) {
  process.stdout.write(`== ${r.script}: ${r.code === 0 ? "ok" : `failed (exit ${r.code})`}`);
  process.stdout.write(r.seconds === undefined ? "\n" : ` in ${r.seconds.toFixed(0)} s\n`);
  if (r.output.trim() !== "")
    process.stdout.write(r.output.endsWith("\n") ? r.output : `${r.output}\n`);
}

// The build first: the e2e tests run dist/, and a type error shows in its output already.
const build = await run("build");
report(build);
if (build.code !== 0) process.exit(build.code);

const checks = await Promise.all(
  ["typecheck", "lint:eslint", "lint:knip", "format:check"].map(run),
);
for (const r of checks) report(r);
process.exit(checks.some((r) => r.code !== 0) ? 1 : 0);
