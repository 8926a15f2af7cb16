/**
 * triggers.json and triggers.md from the probe records (docs/triggers.md). Pure: the writer
 * in run-triggers.ts hands the records in and writes the strings out.
 */
import { caseDefects } from "../analysis/hygiene.js";
import type { ArmProblem } from "../core/arm-integrity.js";
import type { Interval } from "../stats/index.js";
import {
  compareVariants,
  variantStats,
  type Rate,
  type VariantComparison,
  type VariantStats,
} from "./stats.js";
import {
  cell,
  ci,
  countsList,
  invalidAttemptsMarkdown,
  invalidAttemptsOf,
  probeOutcomesOf,
  scriptedModelMarkdown,
} from "./render-parts.js";
import { f2 } from "../util/format.js";
import type { DescriptionVariant, ProbeRecord, TriggerQuery } from "./types.js";

export interface TriggersReportInput {
  skill: { name: string; dir: string; hash: string };
  agent: { name: string; version: string | null; bin: string };
  model: string | null;
  /** The scripted model's script, when the agent talked to skillbench's scripted model. */
  modelScript: string | null;
  settings: {
    count: number;
    concurrency: number;
    max_turns: number;
    timeout_sec: number;
    max_attempts: number;
    sandbox: string;
  };
  installed: { neighbours: string[]; decoys: string[]; skipped: string[] };
  queries: TriggerQuery[];
  queriesSource: string;
  variants: DescriptionVariant[];
  records: ProbeRecord[];
  /** Probes planned but not run (interrupted). */
  notRun: string[];
  startedAt: string;
  finishedAt: string;
}

function jsonRate(r: Rate): {
  value: number | null;
  ci: Interval | null;
  count: number;
  of: number;
} {
  return { value: r.value, ci: r.ci, count: r.count, of: r.of };
}

function variantJson(v: VariantStats, d: DescriptionVariant) {
  return {
    name: v.variant,
    description: d.description,
    description_file: d.file,
    queries: v.queries,
    counts: v.counts,
    precision: jsonRate(v.precision),
    recall: jsonRate(v.recall),
    f1: v.f1,
    false_trigger_rate: jsonRate(v.false_trigger_rate),
    accuracy: jsonRate(v.accuracy),
    confusion: v.confusion,
    invalid_runs: v.invalid_runs,
    invalid_probes: v.invalid_probes,
    rerun_probes: v.rerun_probes,
    probes: v.probes,
  };
}

export type TriggersReport = ReturnType<typeof buildTriggersReport>;

/**
 * The whole report. Its top-level `queries`, `precision`, `recall`, `f1` and `invalid_runs` are
 * those of the first description variant (the only one without `--description-file`); every
 * variant is under `variants`, and `comparison` compares them.
 */
export function buildTriggersReport(i: TriggersReportInput) {
  const stats = i.variants.map((v) => variantStats(v.name, i.queries, i.records));
  const variants = stats.map((s, k) => variantJson(s, i.variants[k] as DescriptionVariant));
  const first = variants[0];
  if (!first) throw new Error("no description variant");
  const comparison: VariantComparison[] = compareVariants(i.queries, i.records, stats);
  return {
    schema: "skillbench.triggers.v1" as const,
    skill: i.skill.name,
    skill_dir: i.skill.dir,
    skill_hash: i.skill.hash,
    agent: i.agent,
    model: i.model,
    scripted_model: i.modelScript,
    settings: i.settings,
    installed: i.installed,
    queries_source: i.queriesSource,
    variant: first.name,
    queries: first.queries,
    precision: first.precision,
    recall: first.recall,
    f1: first.f1,
    false_trigger_rate: first.false_trigger_rate,
    accuracy: first.accuracy,
    confusion: first.confusion,
    invalid_runs: first.invalid_runs,
    variants,
    comparison,
    invalid_attempts: invalidAttemptsOf(i.records),
    not_run: i.notRun,
    probes: probeOutcomesOf(i.records),
    started_at: i.startedAt,
    finished_at: i.finishedAt,
    // Queries no variant got right (docs/statistics.md, "Arm integrity"): only when there are some.
    ...caseDefectsOf(stats, i.skill.name),
  };
}

function caseDefectsOf(stats: VariantStats[], skill: string): { case_defects?: ArmProblem[] } {
  const d = caseDefects(stats, skill);
  return d.length > 0 ? { case_defects: d } : {};
}

function rateRow(
  name: string,
  r: { value: number | null; ci: Interval | null; count: number; of: number },
): string {
  return `| ${name} | ${f2(r.value)} | ${ci(r.ci)} | ${r.count}/${r.of} |`;
}

export function renderTriggersMarkdown(r: TriggersReport): string {
  const out: string[] = [];
  out.push(`# Trigger evaluation: ${r.skill}`, "");
  if (r.scripted_model)
    out.push(scriptedModelMarkdown(r.scripted_model, "the Skill's description"), "");
  const inst = [
    r.installed.neighbours.length
      ? `neighbours ${r.installed.neighbours.join(", ")}`
      : "no neighbours",
    r.installed.decoys.length ? `decoys ${r.installed.decoys.join(", ")}` : "no decoys",
  ].join("; ");
  out.push(
    `Agent ${r.agent.name} ${r.agent.version ?? "(version unknown)"}, model ${r.model ?? "(agent default)"}; ` +
      `${r.queries.length} queries × ${r.settings.count} repetitions × ${r.variants.length} description variant(s), ` +
      `each probe in a fresh workspace (sandbox ${r.settings.sandbox}), at most ${r.settings.max_turns} turns and ${r.settings.timeout_sec} s; ` +
      `installed beside the Skill: ${inst}.`,
    "",
  );
  if (r.installed.skipped.length)
    out.push(
      `Not installed (a Skill of the same name is already there): ${r.installed.skipped.join(", ")}.`,
      "",
    );
  for (const v of r.variants) {
    out.push(`## ${r.variants.length > 1 ? `Variant \`${v.name}\`` : "Summary"}`, "");
    if (r.variants.length > 1) out.push(`Description: ${cell(v.description)}`, "");
    out.push("| metric | value | 95% CI (Wilson) | count |", "| --- | --- | --- | --- |");
    out.push(rateRow("precision", v.precision));
    out.push(rateRow("recall", v.recall));
    out.push(`| F1 | ${f2(v.f1)} | | |`);
    out.push(rateRow("false-trigger rate", v.false_trigger_rate));
    out.push(rateRow("accuracy", v.accuracy));
    out.push("");
    out.push(
      `Probes: ${v.probes}; TP ${v.counts.tp}, FP ${v.counts.fp}, TN ${v.counts.tn}, FN ${v.counts.fn}. ` +
        `Invalid attempts: ${v.invalid_runs} (${v.rerun_probes} probe(s) re-run); ` +
        `${v.invalid_probes} probe(s) still invalid after ${r.settings.max_attempts} attempt(s), left out of every rate (never counted as "not triggered").`,
      "",
    );
    out.push(
      "| id | query | should trigger | rate | 95% CI | triggered/runs | invalid | other Skills |",
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const q of v.queries) {
      const wrong = q.rate !== null && (q.should_trigger ? q.rate < 1 : q.rate > 0) ? " ⚠️" : "";
      const others = countsList(q.other_skills);
      out.push(
        `| ${q.id} | ${cell(q.query)} | ${q.should_trigger ? "yes" : "no"} | ${f2(q.rate)}${wrong} | ${ci(q.rate_ci)} | ${q.triggered}/${q.runs} | ${q.invalid} | ${others || "—"} |`,
      );
    }
    out.push("");
    out.push("### Confusion with other Skills", "");
    if (v.confusion.length === 0) out.push("No other Skill was chosen for any query.", "");
    else {
      out.push(
        "| Skill | took should-trigger probes (lost recall) | took should-not-trigger probes | queries |",
        "| --- | --- | --- | --- |",
      );
      for (const c of v.confusion)
        out.push(
          `| ${c.skill} | ${c.took_positive} | ${c.took_negative} | ${c.queries.join(", ")} |`,
        );
      out.push("");
    }
  }
  if (r.comparison.length > 0) {
    out.push("## Description comparison", "");
    out.push(
      "| variant | accuracy | precision | recall | F1 | false-trigger rate | invalid probes |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const v of r.variants)
      out.push(
        `| ${v.name} | ${f2(v.accuracy.value)} | ${f2(v.precision.value)} | ${f2(v.recall.value)} | ${f2(v.f1)} | ${f2(v.false_trigger_rate.value)} | ${v.invalid_probes} |`,
      );
    out.push("");
    for (const c of r.comparison) {
      out.push(`**${c.candidate} vs ${c.baseline}.** ${c.conclusion}`);
      const m = c.mcnemar
        ? ` Probes paired by query and repetition: ${c.mcnemar.candidate_only} right only under ${c.candidate}, ${c.mcnemar.baseline_only} only under ${c.baseline} (exact McNemar p = ${c.mcnemar.p.toPrecision(2)}; pairs of one query are not independent, so the per-query sign test decides).`
        : "";
      out.push(
        `Per query: ${c.sign_test.pos} better, ${c.sign_test.neg} worse, ${c.sign_test.ties} tied (sign test p = ${c.sign_test.p.toPrecision(2)}).${m}`,
        "",
      );
    }
  }
  const defects = r.case_defects ?? [];
  if (defects.length > 0) {
    out.push("## Possible case defects", "");
    out.push(
      "No description variant got these queries right in any probe: check the query and its `should_trigger` (case_defect, docs/statistics.md, Arm integrity).",
      "",
    );
    out.push("| id | cause |", "| --- | --- |");
    for (const d of defects) out.push(`| ${d.subject} | ${cell(d.cause)} |`);
    out.push("");
  }
  out.push(...invalidAttemptsMarkdown(r.invalid_attempts, r.not_run));
  return `${out.join("\n")}\n`;
}
