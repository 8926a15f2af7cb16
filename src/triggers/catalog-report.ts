/**
 * triggers.json, triggers.md and triggers.html of a catalog (docs/triggers.md, "A catalog of
 * Skills"): precision and recall of each Skill with Wilson intervals, and the full confusion
 * matrix. Pure: run-triggers.ts hands the probe records in and writes the strings out.
 */
import { escapeHtml as e } from "../report/html/escape.js";
import { expectedSkill, type CatalogQuery } from "./catalog.js";
import {
  chosenLabel,
  confusionMatrix,
  matrixAccuracy,
  skillStats,
  NONE,
  type CatalogObservation,
} from "./confusion.js";
import type { TriggersReportInput } from "./report.js";
import {
  BASE_STYLE,
  cell,
  ci,
  countsList,
  invalidAttemptsHtml,
  invalidAttemptsMarkdown,
  invalidAttemptsOf,
  pageHead,
  probeOutcomesOf,
  scriptedModelHtml,
  scriptedModelMarkdown,
} from "./render-parts.js";
import { f2 } from "../util/format.js";
import type { ProbeRecord } from "./types.js";

export interface CatalogReportInput extends Omit<
  TriggersReportInput,
  "skill" | "queries" | "variants" | "queriesSource"
> {
  catalog: { dir: string; skills: { name: string; dir: string; hash: string }[] };
  queries: CatalogQuery[];
  /** Where each Skill's queries came from (null: none). */
  sources: Record<string, string | null>;
}

export type CatalogReport = ReturnType<typeof buildCatalogReport>;

export function buildCatalogReport(i: CatalogReportInput) {
  const names = i.catalog.skills.map((s) => s.name);
  const byId = new Map(i.queries.map((q) => [q.id, q]));
  const obs: CatalogObservation[] = [];
  for (const r of i.records) {
    const q = byId.get(r.query_id);
    if (q) obs.push({ expected: expectedSkill(q), outcome: r.outcome });
  }
  const matrix = confusionMatrix(names, obs);
  const perSkill = skillStats(matrix, names);
  const queries = i.queries.map((q) => {
    const rs = i.records.filter((r: ProbeRecord) => r.query_id === q.id);
    const chosen: Record<string, number> = {};
    let invalid = 0;
    for (const r of rs) {
      const c = chosenLabel(r.outcome, "");
      if (c === null) invalid++;
      else chosen[c] = (chosen[c] ?? 0) + 1;
    }
    const expected = expectedSkill(q) ?? NONE;
    return {
      id: q.id,
      skill: q.skill,
      query: q.query,
      should_trigger: q.should_trigger,
      expected,
      runs: rs.length - invalid,
      correct: chosen[expected] ?? 0,
      invalid,
      chosen,
    };
  });
  return {
    schema: "skillbench.triggers-catalog.v1" as const,
    catalog_dir: i.catalog.dir,
    skills: i.catalog.skills.map((s) => ({
      name: s.name,
      dir: s.dir,
      hash: s.hash,
      queries_source: i.sources[s.name] ?? null,
      queries: i.queries.filter((q) => q.skill === s.name).length,
    })),
    agent: i.agent,
    model: i.model,
    scripted_model: i.modelScript,
    settings: i.settings,
    installed: i.installed,
    per_skill: perSkill,
    accuracy: matrixAccuracy(matrix),
    matrix,
    queries,
    invalid_attempts: invalidAttemptsOf(i.records),
    probes: probeOutcomesOf(i.records),
    not_run: i.notRun,
    started_at: i.startedAt,
    finished_at: i.finishedAt,
  };
}

function intro(r: CatalogReport): string {
  const others = [...r.installed.neighbours, ...r.installed.decoys];
  return (
    `Agent ${r.agent.name} ${r.agent.version ?? "(version unknown)"}, model ${r.model ?? "(agent default)"}; ` +
    `${r.skills.length} Skills installed together${others.length ? ` with ${others.join(", ")}` : ""}; ` +
    `${r.queries.length} queries × ${r.settings.count} repetitions, each probe in a fresh workspace (sandbox ${r.settings.sandbox}). ` +
    `Rows: the Skill a query was written for (a should-not-trigger query: none); columns: the Skill the agent chose.`
  );
}

export function renderCatalogMarkdown(r: CatalogReport): string {
  const out: string[] = [`# Trigger evaluation: catalog ${r.catalog_dir}`, ""];
  if (r.scripted_model)
    out.push(scriptedModelMarkdown(r.scripted_model, "the Skills' descriptions"), "");
  out.push(intro(r), "");
  out.push("## Per Skill", "");
  out.push(
    "| Skill | queries | precision | 95% CI | count | recall | 95% CI | count | F1 |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const s of r.per_skill) {
    const n = r.skills.find((k) => k.name === s.skill)?.queries ?? 0;
    out.push(
      `| ${s.skill} | ${n} | ${f2(s.precision.value)} | ${ci(s.precision.ci)} | ${s.precision.count}/${s.precision.of} | ${f2(s.recall.value)} | ${ci(s.recall.ci)} | ${s.recall.count}/${s.recall.of} | ${f2(s.f1)} |`,
    );
  }
  out.push(
    "",
    `Accuracy (the Skill written for chosen, or none for should-not-trigger queries): ${f2(r.accuracy.value)} ${ci(r.accuracy.ci)}, ${r.accuracy.count}/${r.accuracy.of}. Probes still invalid after their re-runs, in no cell: ${r.matrix.invalid}.`,
    "",
  );
  out.push("## Confusion matrix", "");
  out.push(
    `| written for ╲ chosen | ${r.matrix.columns.join(" | ")} |`,
    `| --- | ${r.matrix.columns.map(() => "---").join(" | ")} |`,
  );
  for (const [k, row] of r.matrix.cells.entries())
    out.push(`| ${r.matrix.rows[k] ?? ""} | ${row.join(" | ")} |`);
  out.push("", "## Queries", "");
  out.push(
    "| id | query | written for | right/runs | invalid | chosen |",
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const q of r.queries) {
    const chosen = countsList(q.chosen);
    const wrong = q.runs > 0 && q.correct < q.runs ? " ⚠️" : "";
    out.push(
      `| ${q.id} | ${cell(q.query)} | ${q.expected} | ${q.correct}/${q.runs}${wrong} | ${q.invalid} | ${chosen || "—"} |`,
    );
  }
  out.push("", ...invalidAttemptsMarkdown(r.invalid_attempts, r.not_run));
  return `${out.join("\n")}\n`;
}

const STYLE = `${BASE_STYLE}td.diag{background:#dafbe1}td.off{background:#ffebe9}`;

export function renderCatalogHtml(r: CatalogReport): string {
  const out = pageHead(
    "Trigger evaluation: catalog",
    `Trigger evaluation: catalog ${e(r.catalog_dir)}`,
    STYLE,
  );
  if (r.scripted_model) out.push(scriptedModelHtml(r.scripted_model, "the Skills' descriptions"));
  out.push(`<p>${e(intro(r))}</p>`, "<h2>Per Skill</h2>");
  out.push(
    "<table><tr><th>Skill</th><th>precision</th><th>95% CI</th><th>count</th><th>recall</th><th>95% CI</th><th>count</th><th>F1</th></tr>",
  );
  for (const s of r.per_skill)
    out.push(
      `<tr><td>${e(s.skill)}</td><td>${f2(s.precision.value)}</td><td>${ci(s.precision.ci)}</td><td>${s.precision.count}/${s.precision.of}</td><td>${f2(s.recall.value)}</td><td>${ci(s.recall.ci)}</td><td>${s.recall.count}/${s.recall.of}</td><td>${f2(s.f1)}</td></tr>`,
    );
  out.push(
    "</table>",
    `<p>Accuracy: ${f2(r.accuracy.value)} ${ci(r.accuracy.ci)}, ${r.accuracy.count}/${r.accuracy.of}; invalid probes (in no cell): ${r.matrix.invalid}.</p>`,
    "<h2>Confusion matrix</h2>",
    `<table><tr><th>written for ╲ chosen</th>${r.matrix.columns.map((c) => `<th>${e(c)}</th>`).join("")}</tr>`,
  );
  for (const [k, row] of r.matrix.cells.entries()) {
    const label = r.matrix.rows[k] ?? "";
    out.push(
      `<tr><th>${e(label)}</th>${row
        .map((n, c) => {
          const cls = r.matrix.columns[c] === label ? "diag" : n > 0 ? "off" : "";
          return `<td${cls ? ` class="${cls}"` : ""}>${n}</td>`;
        })
        .join("")}</tr>`,
    );
  }
  out.push("</table>", "<h2>Queries</h2>");
  out.push(
    "<table><tr><th>id</th><th>query</th><th>written for</th><th>right/runs</th><th>invalid</th><th>chosen</th></tr>",
  );
  for (const q of r.queries)
    out.push(
      `<tr><td>${e(q.id)}</td><td>${e(q.query)}</td><td>${e(q.expected)}</td><td>${q.correct}/${q.runs}</td><td>${q.invalid}</td><td>${e(countsList(q.chosen) || "—")}</td></tr>`,
    );
  out.push("</table>", ...invalidAttemptsHtml(r.invalid_attempts), "</body></html>\n");
  return out.join("\n");
}
