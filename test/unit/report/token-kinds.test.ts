import { describe, expect, it } from "vitest";
import { digestOf, type RunDigest } from "../../../src/core/digest.js";
import type { RunReport } from "../../../src/core/report.js";
import { buildHtmlData } from "../../../src/report/html/summary-data.js";
import { renderSummaryMarkdown } from "../../../src/report/summary-md.js";
import {
  tokenKindLines,
  tokenKindRows,
  tokenKindsSection,
} from "../../../src/report/token-kinds.js";
import { makeReport, makeSummaryInput, type RunSpec } from "./helpers.js";

type Kinds = [number | null, number | null, number | null, number | null];

/** A run that reported these tokens by kind (input, output, cache read, cache write). */
function run(s: RunSpec, k: Kinds): RunReport {
  const r = makeReport(s);
  if (r.events_summary)
    Object.assign(r.events_summary, {
      input_tokens: k[0],
      output_tokens: k[1],
      cache_read_input_tokens: k[2],
      cache_creation_input_tokens: k[3],
    });
  return r;
}
const none: Kinds = [null, null, null, null];

/** A digest as made before the kinds were kept (events_summary without them). */
function oldDigest(s: RunSpec): RunDigest {
  const d = digestOf(makeReport(s));
  const {
    input_tokens: _i,
    output_tokens: _o,
    cache_read_input_tokens: _r,
    cache_creation_input_tokens: _w,
    ...es
  } = d.events_summary ?? { input_tokens: null };
  return { ...d, events_summary: es as RunDigest["events_summary"] };
}

const T = ["CONTROL", "WITH_SKILL"];
const A = { task: "a" };
const B = { task: "b" };

describe("tokens by kind per treatment and task", () => {
  it.each<[string, RunDigest[], Array<[string | null, string, number, Kinds]>]>([
    ["no run reported a kind: no rows", [run(A, none), run(B, none)], []],
    ["old digests without the kinds: no rows", [oldDigest(A), oldDigest(B)], []],
    [
      "sums per treatment, then per task × treatment",
      [
        run({ ...A, rep: 1 }, [100, 10, 1000, 0]),
        run({ ...A, rep: 2 }, [200, 20, 2000, 50]),
        run({ ...B, treatment: "WITH_SKILL" }, [7, 1, 3, 0]),
        run({ ...A, treatment: "WITH_SKILL" }, [1, 2, 3, 4]),
      ],
      [
        [null, "CONTROL", 2, [300, 30, 3000, 50]],
        [null, "WITH_SKILL", 2, [8, 3, 6, 4]],
        ["a", "CONTROL", 2, [300, 30, 3000, 50]],
        ["a", "WITH_SKILL", 1, [1, 2, 3, 4]],
        ["b", "WITH_SKILL", 1, [7, 1, 3, 0]],
      ],
    ],
    [
      "a kind no run of a row reported stays null; runs without kinds still count",
      [run(A, [5, 6, null, null]), run({ ...A, rep: 2 }, none), oldDigest({ ...A, rep: 3 })],
      [
        [null, "CONTROL", 3, [5, 6, null, null]],
        ["a", "CONTROL", 3, [5, 6, null, null]],
      ],
    ],
  ])("%s", (_, runs, want) => {
    const rows = tokenKindRows(runs, T);
    expect(
      rows.map((r) => [
        r.task,
        r.treatment,
        r.runs,
        [r.input, r.output, r.cache_read, r.cache_write],
      ]),
    ).toEqual(want);
  });

  it("render summary.md's section and the HTML's lines, and nothing without kinds", () => {
    const rows = tokenKindRows([run(A, [1200, 34, null, 0])], T);
    const md = tokenKindsSection(rows) ?? "";
    expect(md).toContain("## Tokens by Kind");
    expect(md).toContain("| CONTROL | 1 | 1,200 | 34 | — | 0 |");
    expect(md).toContain("| a | CONTROL | 1 | 1,200 | 34 | — | 0 |");
    expect(tokenKindLines(rows.slice(0, 1))).toEqual([
      "Tokens, CONTROL (1 run): input 1,200 · output 34 · cache read — · cache write 0",
    ]);
    expect(tokenKindsSection([])).toBeNull();
  });

  it("appear in summary.md and the HTML overview only when some run reported a kind", () => {
    const input = (reports: RunDigest[]) => makeSummaryInput(T, reports);
    const html = (reports: RunDigest[]) =>
      buildHtmlData({ view: "summary", mode: "static", reports, metadata: null, comparison: null })
        .experiment.token_kinds;
    const withKinds = [run(A, [10, 2, 30, 4]), run({ ...A, treatment: "WITH_SKILL" }, none)];
    expect(renderSummaryMarkdown(input(withKinds))).toContain(
      "| a | WITH_SKILL | 1 | — | — | — | — |",
    );
    expect(html(withKinds)).toEqual([
      "Tokens, CONTROL (1 run): input 10 · output 2 · cache read 30 · cache write 4",
      "Tokens, WITH_SKILL (1 run): input — · output — · cache read — · cache write —",
    ]);
    const without = [run(A, none), oldDigest({ ...A, treatment: "WITH_SKILL" })];
    expect(renderSummaryMarkdown(input(without))).not.toContain("Tokens by Kind");
    expect(html(without)).toBeUndefined();
  });
});
