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

/** Escaping for element text (newlines kept as they are). */
function xmlText(s: string): string {
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

function properties(r: RunDigest, indent: string, scripted: boolean): string[] {
  const es = r.events_summary;
  const props: Array<[string, string]> = [
    ["treatment", r.treatment],
    ["rep", String(r.rep)],
    ["run_id", r.run_id],
    ["weighted_score", r.rubric ? String(r.rubric.weighted_score) : ""],
    [
      "tokens",
      es?.total_tokens === null || es?.total_tokens === undefined ? "" : String(es.total_tokens),
    ],
    [
      "cost_usd",
      es?.total_cost_usd === null || es?.total_cost_usd === undefined
        ? ""
        : String(es.total_cost_usd),
    ],
    ["outcome", r.outcome],
    ["sample_quality", r.sample_quality.status],
    ...(scripted || r.model_api !== null
      ? [["model_endpoint", SCRIPTED_MODEL_LABEL] as [string, string]]
      : []),
    ["sandbox", r.sandbox?.kind ?? ""],
    ...(r.sandbox?.kind === "local"
      ? [["sandbox_warning", LOCAL_WARNING] as [string, string]]
      : []),
  ];
  return [
    `${indent}<properties>`,
    ...props.map(([n, v]) => `${indent}  <property${attr("name", n)}${attr("value", v)}/>`),
    `${indent}</properties>`,
  ];
}

function testcase(r: RunDigest, wallMs: number, scripted: boolean): string[] {
  const i = "    ";
  const kind = junitKind(r);
  const out = [
    `${i}<testcase${attr("name", `${r.treatment} r${r.rep}`)}${attr("classname", r.task)}${attr("time", secs(wallMs))}>`,
  ];
  out.push(...properties(r, `${i}  `, scripted));
  if (kind === "skipped") {
    out.push(
      `${i}  <skipped${attr("message", `${r.sample_quality.reason_code}: ${r.sample_quality.reason}`)}/>`,
    );
  } else if (kind === "error") {
    const msg = r.outcome_detail || r.outcome;
    out.push(
      `${i}  <error${attr("message", msg)}${attr("type", r.outcome)}>${xmlText([msg, ...r.checks_failed].join("\n"))}</error>`,
    );
  } else if (kind === "failure") {
    const checks =
      r.checks_failed.length > 0 ? r.checks_failed : [r.outcome_detail || "run failed"];
    for (const c of checks)
      out.push(
        `${i}  <failure${attr("message", c)}${attr("type", "check")}>${xmlText(c)}</failure>`,
      );
  }
  if (kind !== "skipped" && r.checks_passed.length > 0)
    out.push(
      `${i}  <system-out>${xmlText(`passed checks:\n${r.checks_passed.map((c) => `  ${c}`).join("\n")}`)}</system-out>`,
    );
  out.push(`${i}</testcase>`);
  return out;
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
        piece += `\n${testcase(reports[x] as RunDigest, walls[x] as number, opts.scripted ?? false).join("\n")}`;
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
