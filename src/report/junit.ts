/**
 * JUnit XML of a results folder: one <testcase> per run (classname = task, name =
 * "<treatment> r<rep>"), one <testsuite> per treatment. Failed checks are <failure>s,
 * runs excluded from the analysis are <skipped message=reason>, errored runs are <error>. With
 * the preflight's health.json, a "task health" <testsuite>: a task left out of the comparison
 * (or making it inconclusive) fails, an unverified one is skipped.
 * Validates against test/fixtures/junit/junit.xsd (Jenkins style; <properties> also allowed
 * inside <testcase>, as pytest, GitLab and the Jenkins JUnit plugin read them). Pure.
 */
import type { RunDigest } from "../core/digest.js";
import { healthEffect, type HealthReport } from "../core/health.js";
import { SCRIPTED_MODEL_LABEL } from "./endpoint.js";
import { LOCAL_WARNING } from "../core/sandbox.js";

export interface JUnitOptions {
  /** <testsuites name> (default "skillbench") */
  name?: string;
  /** treatment order (default: first seen) */
  treatments?: string[];
  /** ISO timestamp for each <testsuite> (default: the earliest run start of that treatment) */
  timestamp?: string;
  /** the runs were played by the scripted model: every testcase says so in a property */
  scripted?: boolean;
  /** The preflight's task health (health.json): a "task health" testsuite, one testcase per task. */
  health?: Pick<HealthReport, "tasks" | "problems"> | null;
}

/** A character xmlEscape changes: one XML 1.0 cannot carry, or one it escapes. */
const NEEDS_ESCAPE =
  /[^\u0020-\u0021\u0023-\u0025\u0028-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** XML 1.0 text/attribute escaping; characters XML 1.0 cannot carry become U+FFFD. */
export function xmlEscape(s: string): string {
  // Most values (ids, numbers, names) have nothing to escape: one test instead of nine passes
  // (the JUnit file of 100,000 runs escapes some 2 million values).
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

/** A character xmlText changes: one NEEDS_ESCAPE matches, but for the tab and newline it keeps. */
const TEXT_NEEDS_ESCAPE =
  /[^\t\n\u0020-\u0021\u0023-\u0025\u0028-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Escaping for element text (newlines kept as they are). */
function xmlText(s: string): string {
  // Element texts are lists of checks, one a line: each has a newline, which NEEDS_ESCAPE
  // matches, and went through the eleven replacements below although they gave it back as it was.
  if (!TEXT_NEEDS_ESCAPE.test(s)) return s;
  return xmlEscape(s).replace(/&#10;/g, "\n").replace(/&#9;/g, "\t");
}

const attr = (name: string, v: string | number): string => ` ${name}="${xmlEscape(String(v))}"`;
const secs = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

export type JUnitKind = "passed" | "failure" | "skipped" | "error";

/** How a run appears in JUnit: excluded runs are skipped (whatever their status), then errored, failed, passed. */
export function junitKind(r: RunDigest): JUnitKind {
  if (!r.sample_quality.include_in_analysis) return "skipped";
  if (r.status === "errored") return "error";
  if (r.status === "failed" || r.checks_failed.length > 0) return "failure";
  return "passed";
}

/** A <property> of a testcase's <properties>; `name` is one of the fixed names below (no escaping). */
const property = (name: string, value: string): string =>
  `\n        <property name="${name}" value="${xmlEscape(value)}"/>`;

/** The same on every run that has them: escaped once. */
const SCRIPTED_PROPERTY = property("model_endpoint", SCRIPTED_MODEL_LABEL);
const LOCAL_PROPERTY = property("sandbox_warning", LOCAL_WARNING);

/**
 * A testcase's <properties>, each line after a newline. One string, each field of the run read
 * once (a packed digest builds events_summary and run_id at every read): no array of name and
 * value pairs and of lines a run (a JUnit file of 10,000 runs has 130,000 lines).
 */
function properties(
  r: RunDigest,
  treatment: string,
  rep: number,
  sq: RunDigest["sample_quality"],
  scripted: boolean,
): string {
  const es = r.events_summary;
  const rubric = r.rubric;
  const sandbox = r.sandbox?.kind;
  return (
    "\n      <properties>" +
    property("treatment", treatment) +
    property("rep", String(rep)) +
    property("run_id", r.run_id) +
    property("weighted_score", rubric ? String(rubric.weighted_score) : "") +
    property("tokens", String(es?.total_tokens ?? "")) +
    property("cost_usd", String(es?.total_cost_usd ?? "")) +
    property("outcome", r.outcome) +
    property("sample_quality", sq.status) +
    (scripted || r.model_api !== null ? SCRIPTED_PROPERTY : "") +
    property("sandbox", sandbox ?? "") +
    (sandbox === "local" ? LOCAL_PROPERTY : "") +
    "\n      </properties>"
  );
}

/** A run's <testcase>, each line after a newline. */
function testcase(r: RunDigest, wallMs: number, scripted: boolean): string {
  const i = "    ";
  const kind = junitKind(r);
  const treatment = r.treatment;
  const rep = r.rep;
  const sq = r.sample_quality;
  let out = `\n${i}<testcase${attr("name", `${treatment} r${rep}`)}${attr("classname", r.task)}${attr("time", secs(wallMs))}>${properties(r, treatment, rep, sq, scripted)}`;
  if (kind === "skipped") {
    out += `\n${i}  <skipped${attr("message", `${sq.reason_code}: ${sq.reason}`)}/>`;
  } else if (kind === "error") {
    const outcome = r.outcome;
    const msg = r.outcome_detail || outcome;
    out += `\n${i}  <error${attr("message", msg)}${attr("type", outcome)}>${xmlText([msg, ...r.checks_failed].join("\n"))}</error>`;
  } else if (kind === "failure") {
    const failed = r.checks_failed;
    const checks = failed.length > 0 ? failed : [r.outcome_detail || "run failed"];
    for (const c of checks)
      out += `\n${i}  <failure${attr("message", c)}${attr("type", "check")}>${xmlText(c)}</failure>`;
  }
  const passed = r.checks_passed;
  if (kind !== "skipped" && passed.length > 0) {
    let list = "passed checks:";
    for (const c of passed) list += `\n  ${c}`;
    out += `\n${i}  <system-out>${xmlText(list)}</system-out>`;
  }
  return `${out}\n${i}</testcase>`;
}

export interface JUnitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

export function junitCounts(reports: RunDigest[]): JUnitCounts {
  const kinds = reports.map(junitKind);
  return {
    tests: reports.length,
    failures: kinds.filter((k) => k === "failure").length,
    errors: kinds.filter((k) => k === "error").length,
    skipped: kinds.filter((k) => k === "skipped").length,
  };
}

/** xs:dateTime without the zone designator, as the Jenkins schema wants. */
function jenkinsTimestamp(iso: string): string {
  return iso.replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, "");
}

/** The task-health testcases (health.json, docs/health.md): one per checked task. */
interface HealthCase {
  task: string;
  kind: "passed" | "failure" | "skipped";
  message: string;
}

function healthCases(h: Pick<HealthReport, "tasks" | "problems">): HealthCase[] {
  return h.tasks.map((t) => {
    const mine = h.problems.filter((p) => p.task === t.task && healthEffect(p.kind) !== "note");
    if (mine.length > 0)
      return {
        task: t.task,
        kind: "failure",
        message: mine
          .map((p) => `${p.kind}${p.check ? ` (${p.check})` : ""}: ${p.cause}`)
          .join("\n"),
      };
    if (t.status === "unverified")
      return {
        task: t.task,
        kind: "skipped",
        message: "unverified: the task ships no reference solution",
      };
    return { task: t.task, kind: "passed", message: "" };
  });
}

/** The JUnit XML document. Runs are ordered by task, then rep, within each treatment's suite. */
export function renderJUnit(reports: RunDigest[], opts: JUnitOptions = {}): string {
  return [...junitPieces(reports, opts)].join("");
}

/** Test cases per piece of junitPieces. */
const CASES_PER_PIECE = 200;

/**
 * renderJUnit's text in pieces of up to CASES_PER_PIECE test cases, to be written a piece at a
 * time: the document grows with the runs (about 1 KB a run), and as one string, with a string
 * per line on the way, it was most of the memory of a 100,000-run `--junit`. Pure; the pieces
 * joined are renderJUnit's text.
 */
export function* junitPieces(reports: RunDigest[], opts: JUnitOptions = {}): Generator<string> {
  const order = [...(opts.treatments ?? [])];
  for (const r of reports) if (!order.includes(r.treatment)) order.push(r.treatment);
  const treatments = order.filter((t) => reports.some((r) => r.treatment === t));
  const total = junitCounts(reports);
  const health = opts.health ? healthCases(opts.health) : [];
  total.tests += health.length;
  total.failures += health.filter((c) => c.kind === "failure").length;
  // Each run's timing read once: a packed digest (store/packed-digests.ts) builds its two ISO
  // texts on every read, and this read it four times a run (a third of the file's CPU at
  // 10,000 runs). The sums add the same values in the same order as before.
  const walls = new Float64Array(reports.length);
  const firstStart = new Map<string, string>();
  let wall = 0;
  reports.forEach((r, x) => {
    const timing = r.timing;
    walls[x] = timing.wall_ms;
    wall += timing.wall_ms;
    const first = firstStart.get(r.treatment);
    if (first === undefined || timing.started_at < first)
      firstStart.set(r.treatment, timing.started_at);
  });
  yield [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr("name", opts.name ?? "skillbench")}${attr("tests", total.tests)}${attr("failures", total.failures)}${attr("errors", total.errors)}${attr("time", secs(wall))}>`,
  ].join("\n");
  for (const [id, t] of treatments.entries()) {
    // positions in `reports` (the walls read above), in the suite's order
    const at: number[] = [];
    reports.forEach((r, x) => {
      if (r.treatment === t) at.push(x);
    });
    at.sort((x, y) => {
      const a = reports[x] as RunDigest;
      const b = reports[y] as RunDigest;
      return a.task.localeCompare(b.task) || a.rep - b.rep;
    });
    const runs = at.map((x) => reports[x] as RunDigest);
    const c = junitCounts(runs);
    const started = firstStart.get(t);
    const ts = jenkinsTimestamp(opts.timestamp ?? started ?? new Date(0).toISOString());
    let suiteWall = 0;
    for (const x of at) suiteWall += walls[x] as number;
    yield `\n  <testsuite${attr("name", t)}${attr("tests", c.tests)}${attr("failures", c.failures)}${attr("errors", c.errors)}${attr("skipped", c.skipped)}${attr("time", secs(suiteWall))}${attr("timestamp", ts)}${attr("id", id)}>`;
    for (let i = 0; i < at.length; i += CASES_PER_PIECE) {
      let piece = "";
      for (const x of at.slice(i, i + CASES_PER_PIECE))
        piece += testcase(reports[x] as RunDigest, walls[x] as number, opts.scripted ?? false);
      yield piece;
    }
    yield "\n  </testsuite>";
  }
  if (health.length > 0) {
    // The preflight's task health, before any run: a task left out of the comparison fails here.
    const ts = jenkinsTimestamp(opts.timestamp ?? new Date(0).toISOString());
    yield `\n  <testsuite${attr("name", "task health")}${attr("tests", health.length)}${attr("failures", health.filter((c) => c.kind === "failure").length)}${attr("errors", 0)}${attr("skipped", health.filter((c) => c.kind === "skipped").length)}${attr("time", "0.000")}${attr("timestamp", ts)}${attr("id", treatments.length)}>`;
    let piece = "";
    for (const c of health) {
      piece += `\n    <testcase${attr("name", "task health")}${attr("classname", c.task)}${attr("time", "0.000")}>`;
      if (c.kind === "failure")
        piece += `\n      <failure${attr("message", c.message.split("\n")[0] ?? "")}${attr("type", "health")}>${xmlText(c.message)}</failure>`;
      if (c.kind === "skipped") piece += `\n      <skipped${attr("message", c.message)}/>`;
      piece += "\n    </testcase>";
    }
    yield `${piece}\n  </testsuite>`;
  }
  yield "\n</testsuites>\n";
}
