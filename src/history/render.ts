/** `skillbench history` as markdown. Pure. */
import { usd } from "../report/format.js";
import { signed } from "../util/format.js";
import type { HistoryRecord } from "./record.js";
import type { SkillHistory, VersionRow } from "./trend.js";

const pct = (x: number | null): string => (x === null ? "—" : `${(x * 100).toFixed(0)}%`);
const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");

function passCell(v: VersionRow): string {
  if (v.pass_rate === null) return "—";
  const i = v.interval ? ` [${pct(v.interval.low)}, ${pct(v.interval.high)}]` : "";
  return `${v.passed}/${v.runs} = ${pct(v.pass_rate)}${i}`;
}

function changeCell(v: VersionRow): string {
  if (!v.change) return "—";
  const { delta, interval, reading } = v.change;
  return `${signed(delta)} [${signed(interval.low)}, ${signed(interval.high)}]: ${reading}`;
}

/** One Skill's history. */
export function renderSkillHistory(h: SkillHistory): string {
  const out: string[] = [`# History of ${h.skill}`, ""];
  if (h.versions.length === 0)
    out.push("_No run, eval or calibrate experiment of this Skill is recorded._", "");
  else {
    out.push(
      "| Version | First recorded | Experiments | Candidate pass rate [95% CI] | Band (against its baseline) | Change vs previous version | Cost per verdict |",
      "|---|---|---:|---|---|---|---:|",
    );
    for (const v of h.versions)
      out.push(
        `| \`${cell(v.label)}\` | ${v.first_recorded.slice(0, 19).replace("T", " ")} | ${v.experiments} | ${passCell(v)} | ${v.band ?? "—"} | ${changeCell(v)} | ${usd(v.cost_per_verdict_usd)}${v.scripted ? " (scripted)" : ""} |`,
      );
    out.push("");
    if (h.versions.some((v) => v.scripted))
      out.push(
        "_(scripted) marks versions measured against the scripted model: their pass rates and costs are not a real model's._",
        "",
      );
  }
  out.push(`## Flaky cases (${h.flaky.length})`, "");
  if (h.flaky.length === 0)
    out.push(
      "_No task flipped between experiments with the same task, Skill, agent and model._",
      "",
    );
  else {
    out.push(
      "Tasks whose outcome flips between experiments in which the task, the Skill, the agent and the model are unchanged: they measure noise, not the Skill.",
      "",
      "| Task | Arm | Agent | Model | Passed runs per experiment |",
      "|---|---|---|---|---|",
    );
    for (const f of h.flaky)
      out.push(
        `| ${cell(f.task)} | ${cell(f.treatment)} | ${f.agent ?? "—"} | ${f.model ?? "(agent's default)"} | ${f.outcomes.map((o) => `${o.c}/${o.n}`).join(", ")} |`,
      );
    out.push("");
  }
  if (h.triggers.length > 0) {
    out.push(
      "## Triggers",
      "",
      "| Experiment | Description | Precision | Recall |",
      "|---|---|---:|---:|",
    );
    for (const t of h.triggers)
      out.push(
        `| ${t.experiment_id} | ${cell(t.description)} | ${pct(t.precision)} | ${pct(t.recall)} |`,
      );
    out.push("");
  }
  return out.join("\n");
}

/** Every Skill the store knows, with its last band. `records` oldest first. */
export function renderSkillList(records: readonly HistoryRecord[], where: string): string {
  const bySkill = new Map<string, HistoryRecord[]>();
  for (const r of records) bySkill.set(r.skill, [...(bySkill.get(r.skill) ?? []), r]);
  const out = [`# History (${where})`, ""];
  if (bySkill.size === 0) {
    out.push("_Nothing is recorded yet._", "");
    return out.join("\n");
  }
  out.push(
    "| Skill | Versions | Experiments | Last recorded | Last band |",
    "|---|---:|---:|---|---|",
  );
  for (const [skill, rs] of [...bySkill].sort((a, b) => a[0].localeCompare(b[0]))) {
    const last = rs[rs.length - 1];
    out.push(
      `| ${cell(skill)} | ${new Set(rs.map((r) => r.skill_hash)).size} | ${rs.length} | ${last?.recorded_at.slice(0, 19).replace("T", " ") ?? "—"} | ${last?.band ?? "—"} |`,
    );
  }
  out.push("", "`skillbench history SKILL` shows one Skill's trend and flaky cases.", "");
  return out.join("\n");
}
