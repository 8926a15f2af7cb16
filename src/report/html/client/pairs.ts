/**
 * The viewer's pairwise pairs (`skillbench view`, docs/judge.md "Pairwise"): per task and
 * repetition, what each order preferred (the candidate as A, then the baseline as A) read from the
 * candidate's side, the pair's outcome, and whether the orders disagreed (the position bias);
 * per task and in all the ties and disagreements. Served mode only: the pairs come from
 * /api/pairwise (pairwise.json); the static pages show the comparison's totals.
 */
import type { PairwiseFile } from "../../../core/pairwise.js";
import { DASH, h, tableHead } from "./dom.js";
import { state } from "./state.js";

type Order = PairwiseFile["pairs"][number]["first"];

/** An order's preference as the candidate's side: `candidateIsA` for the first order. */
function side(o: Order, candidateIsA: boolean): string {
  if (o.preferred === null) return `failed: ${o.reason}`;
  if (o.preferred === "tie") return "tie";
  return (o.preferred === "A") === candidateIsA ? "candidate" : "baseline";
}

function pairsTable(f: PairwiseFile): HTMLElement {
  const tasks = [...new Set(f.pairs.map((p) => p.task))];
  const perTask = tasks.map((t) => {
    const ps = f.pairs.filter((p) => p.task === t);
    return h("tr", null, [
      h("td", { text: t }),
      h("td", { class: "num", text: String(ps.length) }),
      h("td", { class: "num", text: String(ps.filter((p) => p.outcome === "tie").length) }),
      h("td", { class: "num", text: String(ps.filter((p) => p.disagree).length) }),
    ]);
  });
  const ties = f.pairs.filter((p) => p.outcome === "tie").length;
  const disagree = f.pairs.filter((p) => p.disagree).length;
  return h("div", { id: "pairwise-pairs" }, [
    h("h3", { text: `Pairwise judge: the pairs (${f.candidate} vs ${f.baseline})` }),
    h("p", {
      id: "pairwise-pairs-summary",
      text: `${f.pairs.length} pair(s) judged by ${f.model}: ${ties} tie(s); the orders disagreed in ${disagree} (position bias ${f.pairs.length ? (disagree / f.pairs.length).toFixed(2) : DASH}).`,
    }),
    h("p", {
      class: "meta",
      text: `Each pair twice: first with ${f.candidate} as A, then with ${f.baseline} as A; a preference counts only when both orders agree, else the pair is a tie and the orders disagreed (position bias).`,
    }),
    h("table", { id: "pairwise-tasks" }, [
      tableHead(["Task", "Pairs", "Ties", "Orders disagree"], 1),
      h("tbody", null, perTask),
    ]),
    h("table", { id: "pairwise-pair-rows" }, [
      tableHead([
        "Task",
        "Rep",
        `${f.candidate} as A`,
        `${f.baseline} as A`,
        "Outcome",
        "Orders disagree",
      ]),
      h(
        "tbody",
        null,
        f.pairs.map((p) =>
          h("tr", { "data-task": p.task, "data-rep": p.rep }, [
            h("td", { text: p.task }),
            h("td", { text: String(p.rep) }),
            h("td", { title: p.first.reason, text: side(p.first, true) }),
            h("td", { title: p.second.reason, text: side(p.second, false) }),
            h("td", { text: p.outcome ?? DASH }),
            h("td", { text: p.disagree ? "yes" : "no" }),
          ]),
        ),
      ),
    ]),
  ]);
}

/** A placeholder filled with the pairs once fetched (removed when the folder has none); null on a static page. */
export function pairwisePairs(): HTMLElement | null {
  if (!state.served) return null;
  const box = h("div", { class: "meta", text: "Loading the pairwise judge\u2019s pairs\u2026" });
  fetch("/api/pairwise")
    .then((r) => {
      if (r.status === 404) return null;
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json() as Promise<PairwiseFile>;
    })
    .then(
      (f) => (f ? box.replaceWith(pairsTable(f)) : box.remove()),
      (e: unknown) => {
        box.textContent = `Could not load the pairs: ${e instanceof Error ? e.message : String(e)}`;
      },
    );
  return box;
}
