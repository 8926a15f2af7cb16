/** The history page's file names and its self-contained HTML (issue 36 item 4). */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { historyPageData, renderHistoryHtml } from "../../../src/history/render-html.js";
import {
  historyPageName,
  historyPageOfResults,
  historySkillName,
} from "../../../src/store/history-page.js";

describe("the history page's names", () => {
  it.each([
    [null, [], "(none)"],
    ["WITH_SKILL", [], "WITH_SKILL"],
    ["WITH_SKILL", [{ name: "b" }, { name: "a" }], "a+b"],
  ] as const)("candidate %s with Skills %j is Skill %s", (candidate, skills, want) => {
    expect(historySkillName(candidate, skills)).toBe(want);
  });

  it.each([
    ["house-style", "house-style.html"],
    ["a+b", "a_b.html"],
    ["../x y", ".._x_y.html"],
    ["", "_.html"],
  ])("%j is written as %s", (skill, file) => {
    expect(historyPageName(skill)).toBe(file);
  });

  it("lives in the .skillbench folder beside the results, with the default store", () => {
    expect(historyPageOfResults("/w/.skillbench/runs/20261206-x", "a+b")).toBe(
      path.join("/w/.skillbench/history/a_b.html"),
    );
    expect(historyPageOfResults("/w/out/exp1", "s")).toBe("/w/out/.skillbench/history/s.html");
  });
});

describe("renderHistoryHtml", () => {
  const data = historyPageData(
    { skill: "s</script><script>alert(1)</script>", versions: [], flaky: [], triggers: [] },
    "postgres://u:***@db/x",
  );
  const html = renderHistoryHtml(data, {
    chartJs: "var Chart = 1; // </script>",
    clientJs: "void 0;",
  });

  it("embeds the data as JSON that no text in it can end", () => {
    const m = /<script type="application\/json" id="skillbench-history">(.*?)<\/script>/s.exec(
      html,
    );
    expect(JSON.parse(m?.[1] ?? "")).toEqual(data);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });

  it("loads nothing from the network", () => {
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(html).toContain("<title>Skillbench history — s&#60;/script&#62;");
  });
});
