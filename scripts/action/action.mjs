#!/usr/bin/env node
/**
 * The steps of the skillbench GitHub Action (action.yml), one subcommand each, so that a test can
 * run them on this machine without GitHub's runner:
 *
 *   changed   the Skill folders (with SKILL.md) under SKILLS_ROOT changed since BASE_REF
 *   evaluate  `skillbench eval` each changed Skill, `skillbench comment` them, step summary, outputs
 *   comment   create or update the pull request's comment (found by its hidden marker)
 *   gate      exit 1 when FAIL_ON says the results fail the check
 *
 * Inputs come as environment variables (INPUT_* as action.yml passes them, GITHUB_* as GitHub
 * sets them). GITHUB_TOKEN and the model's API key are never printed: they are only sent to the
 * API (the token) or left in the agent's environment (the key) as the run declares.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const env = process.env;
const input = (name, dflt = "") =>
  (env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`] ?? dflt).trim();
const work = () => path.resolve(env.SKILLBENCH_ACTION_DIR ?? ".skillbench/action");
const skillbench = () => {
  const bin = env.SKILLBENCH_BIN;
  if (!bin) throw new Error("SKILLBENCH_BIN is not set (the install step sets it)");
  return bin;
};

function output(name, value) {
  if (env.GITHUB_OUTPUT)
    appendFileSync(env.GITHUB_OUTPUT, `${name}<<__SKILLBENCH__\n${value}\n__SKILLBENCH__\n`);
}

/** `eval --help` lists the flag: the CLI at run time has it. */
function evalHas(flag) {
  const r = spawnSync(process.execPath, [skillbench(), "eval", "--help"], { encoding: "utf8" });
  return r.stdout.includes(flag);
}

/** The Skill folders under root changed since base: the nearest folder with a SKILL.md of each changed file. */
function changedSkills(root, base) {
  const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const files = execFileSync("git", ["diff", "--name-only", `${base}...HEAD`, "--", root], {
    encoding: "utf8",
    cwd: top,
  })
    .split("\n")
    .filter(Boolean);
  const rootAbs = path.resolve(top, root);
  const skills = new Set();
  for (const f of files) {
    for (let d = path.dirname(path.resolve(top, f)); d.startsWith(rootAbs); d = path.dirname(d)) {
      if (existsSync(path.join(d, "SKILL.md"))) {
        skills.add(path.relative(process.cwd(), d) || ".");
        break;
      }
      if (d === rootAbs) break;
    }
  }
  return [...skills].sort();
}

function changed() {
  const root = input("skills-root", ".");
  const base = input("base-ref") || env.GITHUB_BASE_REF || "";
  if (!base)
    throw new Error("no base ref: set the base-ref input (or run on a pull_request event)");
  const ref = /^[0-9a-f]{40}$/.test(base) || base.startsWith("origin/") ? base : `origin/${base}`;
  const resolved =
    spawnSync("git", ["rev-parse", "--verify", "--quiet", ref]).status === 0 ? ref : base;
  // `eval --changed-since` (when the CLI has it) lists them itself; until then git diff does.
  const skills = changedSkills(root, resolved);
  mkdirSync(work(), { recursive: true });
  writeFileSync(path.join(work(), "skills.json"), JSON.stringify(skills));
  console.log(`Skills changed since ${resolved}: ${skills.length ? skills.join(", ") : "none"}`);
  output("skills", JSON.stringify(skills));
}

function evaluate() {
  const skills = JSON.parse(readFileSync(path.join(work(), "skills.json"), "utf8"));
  const results = [];
  const exits = {};
  const extra = [];
  for (const [flag, name] of [
    ["--agent", "agent"],
    ["--model", "model"],
    ["--count", "count"],
    ["--sandbox", "sandbox"],
  ]) {
    const v = input(name);
    if (v) extra.push(flag, v);
  }
  const budget = input("budget");
  if (budget) {
    if (evalHas("--budget-usd")) extra.push("--budget-usd", budget);
    else console.log("::warning::this skillbench has no --budget-usd: the budget input is ignored");
  }
  // More `eval` arguments for every Skill (a JSON array; `{skill}` is the Skill's folder): how a
  // test serves each Skill's own model script. Not an input: a workflow passes flags through inputs.
  const more = env.SKILLBENCH_EVAL_ARGS ? JSON.parse(env.SKILLBENCH_EVAL_ARGS) : [];
  for (const skill of skills) {
    const out = path.join(work(), "results", skill.replace(/[\\/]/g, "__"));
    console.log(`::group::skillbench eval ${skill}`);
    const r = spawnSync(
      process.execPath,
      [
        skillbench(),
        "eval",
        skill,
        "--out",
        out,
        ...extra,
        ...more.map((a) => String(a).replaceAll("{skill}", skill)),
      ],
      {
        stdio: "inherit",
      },
    );
    console.log("::endgroup::");
    exits[skill] = r.status;
    if (existsSync(out)) results.push({ skill, out });
  }
  const summary = {};
  for (const { skill, out } of results) {
    const cmp = path.join(out, "comparison.json");
    const c = existsSync(cmp) ? JSON.parse(readFileSync(cmp, "utf8")) : null;
    const spend = c?.spend ?? [];
    const costs = spend.map((s) => s.cost_usd);
    summary[skill] = {
      band: c?.verdict?.band ?? null,
      delta: c?.verdict?.delta ?? null,
      cost_usd:
        costs.length && costs.every((x) => typeof x === "number")
          ? costs.reduce((a, b) => a + b, 0)
          : null,
      exit_code: exits[skill],
      results: out,
    };
  }
  const commentFile = path.join(work(), "comment.md");
  if (results.length > 0) {
    const args = [skillbench(), "comment", ...results.map((r) => r.out), "--out", commentFile];
    if (input("marker")) args.push("--marker", input("marker"));
    execFileSync(process.execPath, args, { stdio: "inherit" });
  } else
    writeFileSync(
      commentFile,
      "<!-- skillbench-comment -->\n## skillbench\n\nNo Skill changed in this pull request.\n",
    );
  if (env.GITHUB_STEP_SUMMARY)
    appendFileSync(env.GITHUB_STEP_SUMMARY, readFileSync(commentFile, "utf8"));
  writeFileSync(path.join(work(), "summary.json"), JSON.stringify(summary, null, 2));
  output("results", JSON.stringify(summary));
  output(
    "band",
    JSON.stringify(Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, v.band]))),
  );
  output(
    "delta",
    JSON.stringify(Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, v.delta]))),
  );
  output(
    "cost",
    JSON.stringify(Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, v.cost_usd]))),
  );
  output("results-dir", path.join(work(), "results"));
}

async function comment() {
  const event = env.GITHUB_EVENT_PATH
    ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"))
    : {};
  const number = event.pull_request?.number ?? event.issue?.number;
  if (!number) {
    console.log("Not a pull request: no comment posted (the step summary has it).");
    return;
  }
  const token = env.GITHUB_TOKEN;
  if (!token) throw new Error("GITHUB_TOKEN is not set: the comment cannot be posted");
  const api = (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/$/, "");
  const repo = env.GITHUB_REPOSITORY;
  if (!repo) throw new Error("GITHUB_REPOSITORY is not set");
  const body = readFileSync(path.join(work(), "comment.md"), "utf8");
  const marker = body.split("\n", 1)[0];
  const headers = {
    authorization: `Bearer ${token}`,
    accept: "application/vnd.github+json",
    "content-type": "application/json",
    "x-github-api-version": "2022-11-28",
  };
  const call = async (method, url, payload) => {
    // Bounded: an API that never answers fails the step instead of holding the job until
    // GitHub's own job timeout.
    const res = await fetch(url, {
      method,
      headers,
      body: payload ? JSON.stringify(payload) : undefined,
      signal: globalThis.AbortSignal.timeout(30_000),
    });
    if (!res.ok)
      throw new Error(`${method} ${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  let found = null;
  for (let page = 1; page <= 50 && !found; page++) {
    const list = await call(
      "GET",
      `${api}/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`,
    );
    found =
      list.find((c) => typeof c.body === "string" && c.body.split("\n", 1)[0] === marker) ?? null;
    if (list.length < 100) break;
  }
  if (found) {
    await call("PATCH", `${api}/repos/${repo}/issues/comments/${found.id}`, { body });
    console.log(`Updated comment ${found.id} on #${number}`);
  } else {
    const made = await call("POST", `${api}/repos/${repo}/issues/${number}/comments`, { body });
    console.log(`Created comment ${made.id} on #${number}`);
  }
}

function gate() {
  const failOn = input("fail-on", "gates");
  if (!["gates", "regression", "never"].includes(failOn))
    throw new Error(`fail-on: ${failOn} (gates, regression or never)`);
  const summary = JSON.parse(readFileSync(path.join(work(), "summary.json"), "utf8"));
  const bad = Object.entries(summary).filter(([, v]) =>
    failOn === "gates"
      ? v.exit_code !== 0
      : failOn === "regression"
        ? v.band === "regressed"
        : false,
  );
  for (const [k, v] of bad)
    console.log(
      `::error::${k}: ${failOn === "gates" ? `eval exited ${v.exit_code}` : "regressed"}`,
    );
  process.exitCode = bad.length > 0 ? 1 : 0;
}

const steps = { changed, evaluate, comment, gate };
const step = steps[process.argv[2] ?? ""];
if (!step) {
  console.error(`usage: action.mjs ${Object.keys(steps).join("|")}`);
  process.exit(2);
}
try {
  await step();
} catch (e) {
  console.log(`::error::${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
}
