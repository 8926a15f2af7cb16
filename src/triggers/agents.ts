/**
 * Trigger evaluation across agents (`triggers SKILL --agent claude,codex,...`, docs/triggers.md):
 * one ordinary evaluation per agent in `<out>/<agent>/` (its own probes, model server and
 * triggers.json), then triggers-agents.json/.md/.html at the top: per agent precision and recall
 * with their intervals, and per query "does the same description trigger on each agent?". The
 * report and its renderings are pure; `runTriggersOnAgents` runs the evaluations one agent after
 * the other (each one's `-j` bounds its probes).
 */
import path from "node:path";
import { escapeHtml as e } from "../report/html/escape.js";
import { writeFileAtomic, writeJsonAtomic } from "../util/fs.js";
import { declaredSecrets, makeRedactor, redactValue, secretsFromEnv } from "../util/redact.js";
import type { TriggersReport } from "./report.js";
import { InputError } from "../core/errors.js";
import { catalogInputs } from "./catalog.js";
import {
  newId,
  probingDriver,
  runTriggers,
  type TriggerOptions,
  type TriggerSummary,
} from "./run-triggers.js";
import { f2 } from "../util/format.js";

type Rate = TriggersReport["precision"];

export interface AgentEvaluation {
  /** The driver name given to `--agent` (the folder's name). */
  agent: string;
  report: TriggersReport;
}

const ci = (r: Rate): string => (r.ci ? `[${f2(r.ci.low)}, ${f2(r.ci.high)}]` : "n/a");

/** The cross-agent report from each agent's own. Pure. */
export function buildAgentsReport(evals: AgentEvaluation[]) {
  const first = evals[0]?.report;
  if (!first) throw new Error("no agent evaluated");
  const agents = evals.map(({ agent, report: r }) => ({
    agent,
    report_name: r.agent.name,
    version: r.agent.version,
    folder: agent,
    variants: r.variants.map((v) => ({
      name: v.name,
      precision: v.precision,
      recall: v.recall,
      f1: v.f1,
      false_trigger_rate: v.false_trigger_rate,
      invalid_probes: v.invalid_probes,
    })),
  }));
  // Per variant and query: the trigger rate on each agent, and whether they agree (each agent
  // with an answer triggered on all of its probes, or on none of them).
  const same_description = first.variants.flatMap((v) =>
    v.queries.map((q) => {
      const by_agent = evals.map(({ agent, report }) => {
        const row = report.variants
          .find((x) => x.name === v.name)
          ?.queries.find((x) => x.id === q.id);
        return {
          agent,
          triggered: row?.triggered ?? 0,
          runs: row?.runs ?? 0,
          rate: row?.rate ?? null,
        };
      });
      const answered = by_agent.filter((a) => a.rate !== null);
      const all = answered.length > 0 && answered.every((a) => a.rate === 1);
      const none = answered.length > 0 && answered.every((a) => a.rate === 0);
      return {
        variant: v.name,
        query: q.id,
        text: q.query,
        should_trigger: q.should_trigger,
        by_agent,
        verdict:
          answered.length < evals.length
            ? ("unknown" as const)
            : all
              ? ("triggers on every agent" as const)
              : none
                ? ("triggers on no agent" as const)
                : ("differs" as const),
      };
    }),
  );
  return {
    schema: "skillbench.triggers-agents.v1" as const,
    skill: first.skill,
    skill_hash: first.skill_hash,
    scripted_model: first.scripted_model,
    agents,
    same_description,
  };
}

export type AgentsReport = ReturnType<typeof buildAgentsReport>;

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

export function renderAgentsMarkdown(r: AgentsReport): string {
  const out: string[] = [`# Trigger evaluation across agents: ${r.skill}`, ""];
  if (r.scripted_model)
    out.push(
      `> ⚠️ **Scripted model.** The agents talked to skillbench's scripted model (${r.scripted_model}): these numbers test the harness and the script, not the Skill's description.`,
      "",
    );
  out.push(
    "Each agent's own evaluation (probes, triggers.json, triggers.md) is in the folder named after it.",
    "",
    "| agent | version | variant | precision | 95% CI | recall | 95% CI | F1 | invalid probes |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const a of r.agents)
    for (const v of a.variants)
      out.push(
        `| ${a.agent} | ${a.version ?? "?"} | ${v.name} | ${f2(v.precision.value)} (${v.precision.count}/${v.precision.of}) | ${ci(v.precision)} | ${f2(v.recall.value)} (${v.recall.count}/${v.recall.of}) | ${ci(v.recall)} | ${f2(v.f1)} | ${v.invalid_probes} |`,
      );
  out.push("", "## Does the same description trigger on each agent?", "");
  const names = r.agents.map((a) => a.agent);
  out.push(
    `| variant | id | query | should trigger | ${names.join(" | ")} | verdict |`,
    `| --- | --- | --- | --- | ${names.map(() => "---").join(" | ")} | --- |`,
  );
  for (const q of r.same_description)
    out.push(
      `| ${q.variant} | ${q.query} | ${cell(q.text)} | ${q.should_trigger ? "yes" : "no"} | ${q.by_agent.map((a) => `${a.triggered}/${a.runs}`).join(" | ")} | ${q.verdict} |`,
    );
  out.push(
    "",
    "Cells: probes that chose the Skill / probes with an answer (invalid probes left out).",
    "",
  );
  return out.join("\n");
}

export function renderAgentsHtml(r: AgentsReport): string {
  const out: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trigger evaluation across agents: ${e(r.skill)}</title>`,
    "<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left}th{background:#f6f8fa}.bad{color:#cf222e;font-weight:600}</style></head><body>",
    `<h1>Trigger evaluation across agents: ${e(r.skill)}</h1>`,
  ];
  if (r.scripted_model)
    out.push(
      `<p><strong>Scripted model.</strong> The agents talked to skillbench's scripted model (${e(r.scripted_model)}).</p>`,
    );
  out.push(
    "<table><tr><th>agent</th><th>version</th><th>variant</th><th>precision</th><th>95% CI</th><th>recall</th><th>95% CI</th><th>F1</th><th>invalid probes</th></tr>",
  );
  for (const a of r.agents)
    for (const v of a.variants)
      out.push(
        `<tr><td><a href="${e(a.folder)}/triggers.html">${e(a.agent)}</a></td><td>${e(a.version ?? "?")}</td><td>${e(v.name)}</td><td>${f2(v.precision.value)} (${v.precision.count}/${v.precision.of})</td><td>${ci(v.precision)}</td><td>${f2(v.recall.value)} (${v.recall.count}/${v.recall.of})</td><td>${ci(v.recall)}</td><td>${f2(v.f1)}</td><td>${v.invalid_probes}</td></tr>`,
      );
  out.push("</table><h2>Does the same description trigger on each agent?</h2>");
  out.push(
    `<table><tr><th>variant</th><th>id</th><th>query</th><th>should trigger</th>${r.agents.map((a) => `<th>${e(a.agent)}</th>`).join("")}<th>verdict</th></tr>`,
  );
  for (const q of r.same_description)
    out.push(
      `<tr><td>${e(q.variant)}</td><td>${e(q.query)}</td><td>${e(q.text)}</td><td>${q.should_trigger ? "yes" : "no"}</td>${q.by_agent.map((a) => `<td>${a.triggered}/${a.runs}</td>`).join("")}<td class="${q.verdict === "differs" ? "bad" : ""}">${e(q.verdict)}</td></tr>`,
    );
  out.push("</table></body></html>", "");
  return out.join("\n");
}

export interface AgentsSummary {
  outDir: string;
  /** Each agent's own evaluation, in the order given. */
  runs: (TriggerSummary & { agent: string; report: TriggersReport })[];
  report: AgentsReport;
  files: string[];
}

/** `--agent a,b`: the driver names, each one checked (an agent without probes refused) before any runs. */
export function probingAgents(list: string): string[] {
  const out: string[] = [];
  for (const raw of list.split(",").map((s) => s.trim()))
    if (!out.includes(probingDriver(raw).name)) out.push(probingDriver(raw).name);
  return out;
}

/**
 * One evaluation per agent under `<out>/<agent>/`, then the cross-agent files. Stops before the
 * next agent once `stopSignal` fires.
 */
export async function runTriggersOnAgents(
  opts: TriggerOptions,
  agents: string[],
): Promise<AgentsSummary> {
  const cwd = opts.cwd ?? process.cwd();
  if (opts.resume && !opts.out)
    throw new InputError("--resume needs --out DIR: the results folder of the interrupted run", {
      field: "--resume",
    });
  const outDir = opts.out
    ? path.resolve(cwd, opts.out)
    : path.resolve(cwd, ".skillbench", "triggers", newId());
  // The cross-agent table compares one Skill's descriptions query by query; a catalog's matrix or
  // an optimiser's held-out split per agent would not line up, so they take one agent at a time.
  if (opts.optimise !== undefined)
    throw new InputError(
      "--optimise takes one agent: the cross-agent table compares one description",
      {
        field: "--agent",
      },
    );
  if (await catalogInputs(path.resolve(cwd, opts.skill), opts))
    throw new InputError(
      "a catalog takes one agent: run `triggers CATALOG_DIR --agent NAME` once per agent",
      {
        field: "--agent",
      },
    );
  const runs: (TriggerSummary & { agent: string; report: TriggersReport })[] = [];
  for (const agent of agents) {
    if (opts.stopSignal?.aborted) break;
    const res = await runTriggers({ ...opts, agent, out: path.join(outDir, agent) });
    // A Skill (not a catalog, refused above) always has its report.
    if (res.report) runs.push({ ...res, agent, report: res.report });
  }
  const report = buildAgentsReport(runs.map((r) => ({ agent: r.agent, report: r.report })));
  const files = ["triggers-agents.json", "triggers-agents.md", "triggers-agents.html"].map((f) =>
    path.join(outDir, f),
  );
  // Redacted as each agent's own files are (the same secrets: the host's and the declared env's).
  const redact = makeRedactor([
    ...secretsFromEnv(opts.hostEnv ?? process.env),
    ...declaredSecrets(opts.env ?? {}),
  ]);
  await writeJsonAtomic(files[0] as string, redactValue(report, redact));
  await writeFileAtomic(files[1] as string, redact(renderAgentsMarkdown(report)));
  await writeFileAtomic(files[2] as string, redact(renderAgentsHtml(report)));
  return { outDir, runs, report, files };
}
