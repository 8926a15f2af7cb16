/**
 * triggers.html: the trigger report as one self-contained page (no scripts): the summary with
 * Wilson intervals, a bar per query for its trigger rate, the confusion list, the description
 * comparison and the invalid attempts. Pure.
 */
import { escapeHtml as e } from "../report/html/escape.js";
import type { TriggersReport } from "./report.js";
import {
  BASE_STYLE,
  ci,
  countsList,
  invalidAttemptsHtml,
  pageHead,
  scriptedModelHtml,
} from "./render-parts.js";
import { f2 } from "../util/format.js";

const STYLE = `${BASE_STYLE}
.bar{display:inline-block;height:.8rem;background:#0969da;vertical-align:middle}.bar.neg{background:#cf222e}
.track{display:inline-block;width:8rem;height:.8rem;background:#eaeef2;margin-right:.4rem}.bad{color:#cf222e;font-weight:600}`;

export function renderTriggersHtml(r: TriggersReport): string {
  const title = `Trigger evaluation: ${e(r.skill)}`;
  const out = pageHead(title, title, STYLE);
  if (r.scripted_model) out.push(scriptedModelHtml(r.scripted_model, "the Skill's description"));
  out.push(
    `<p>Agent ${e(r.agent.name)} ${e(r.agent.version ?? "")}, model ${e(r.model ?? "(agent default)")}; ${r.queries.length} queries × ${r.settings.count} repetitions; installed beside the Skill: ${e([...r.installed.neighbours, ...r.installed.decoys].join(", ") || "nothing")}.</p>`,
  );
  for (const v of r.variants) {
    out.push(`<h2>${r.variants.length > 1 ? `Variant ${e(v.name)}` : "Summary"}</h2>`);
    if (r.variants.length > 1) out.push(`<p>Description: ${e(v.description)}</p>`);
    out.push("<table><tr><th>metric</th><th>value</th><th>95% CI (Wilson)</th><th>count</th></tr>");
    for (const [name, rate] of [
      ["precision", v.precision],
      ["recall", v.recall],
      ["false-trigger rate", v.false_trigger_rate],
      ["accuracy", v.accuracy],
    ] as const)
      out.push(
        `<tr><td>${name}</td><td>${f2(rate.value)}</td><td>${ci(rate.ci)}</td><td>${rate.count}/${rate.of}</td></tr>`,
      );
    out.push(`<tr><td>F1</td><td>${f2(v.f1)}</td><td></td><td></td></tr></table>`);
    out.push(
      `<p>Invalid attempts: ${v.invalid_runs}; probes still invalid (left out, never counted as "not triggered"): ${v.invalid_probes}.</p>`,
    );
    out.push(
      "<table><tr><th>id</th><th>query</th><th>should trigger</th><th>trigger rate</th><th>triggered/runs</th><th>invalid</th><th>other Skills</th></tr>",
    );
    for (const q of v.queries) {
      const wrong = q.rate !== null && (q.should_trigger ? q.rate < 1 : q.rate > 0);
      const width = Math.round((q.rate ?? 0) * 100);
      out.push(
        `<tr><td>${e(q.id)}</td><td>${e(q.query)}</td><td>${q.should_trigger ? "yes" : "no"}</td>` +
          `<td><span class="track"><span class="bar${q.should_trigger ? "" : " neg"}" style="width:${width}%"></span></span><span class="${wrong ? "bad" : ""}">${f2(q.rate)}</span></td>` +
          `<td>${q.triggered}/${q.runs}</td><td>${q.invalid}</td><td>${e(countsList(q.other_skills) || "—")}</td></tr>`,
      );
    }
    out.push("</table>");
    if (v.confusion.length > 0) {
      out.push(
        "<h3>Confusion with other Skills</h3><table><tr><th>Skill</th><th>took should-trigger probes</th><th>took should-not-trigger probes</th><th>queries</th></tr>",
      );
      for (const c of v.confusion)
        out.push(
          `<tr><td>${e(c.skill)}</td><td>${c.took_positive}</td><td>${c.took_negative}</td><td>${e(c.queries.join(", "))}</td></tr>`,
        );
      out.push("</table>");
    }
  }
  if (r.comparison.length > 0) {
    out.push("<h2>Description comparison</h2>");
    for (const c of r.comparison) out.push(`<p>${e(c.conclusion)}</p>`);
  }
  out.push(...invalidAttemptsHtml(r.invalid_attempts), "</body></html>\n");
  return out.join("\n");
}
