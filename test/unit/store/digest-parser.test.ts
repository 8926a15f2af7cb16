/**
 * DigestParser checks the fields that runs repeat once per distinct value: for every input, its
 * answer must be the whole ReportDigestSchema's (the same output, up to the order of its keys,
 * or a refusal with the same field and message), whether a value is met for the first time or
 * again.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { digestOf, ReportDigestSchema } from "../../../src/core/digest.js";
import { issuesText } from "../../../src/core/errors.js";
import { DigestParser } from "../../../src/store/digest-parser.js";

const GOLDEN = path.resolve(import.meta.dirname, "../../golden");
const reports: Array<Record<string, unknown>> = ["demo", "mixed"].flatMap((suite) => {
  const runs = path.join(GOLDEN, suite, "results", "runs");
  return readdirSync(runs).map(
    (id) =>
      JSON.parse(readFileSync(path.join(runs, id, "report.json"), "utf8")) as Record<
        string,
        unknown
      >,
  );
});

/** What the whole schema answers: the output, or the refusal's text. */
function whole(json: unknown): unknown {
  const r = ReportDigestSchema.safeParse(json);
  return r.success ? { ok: r.data } : { refused: issuesText(r.error) };
}
function byParser(p: DigestParser, json: unknown): unknown {
  const r = p.parse(json);
  return r.success ? { ok: r.data } : { refused: issuesText(r.error) };
}

const clone = <T>(v: T): T => structuredClone(v);

/** Variants of a report: fields changed, removed or broken, repeating ones and others. */
function variants(r: Record<string, unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [["as written", clone(r)]];
  const set = (name: string, field: string, value: unknown): void => {
    const v = clone(r);
    if (value === undefined) delete v[field];
    else v[field] = value;
    out.push([name, v]);
  };
  set("another check list", "checks_passed", ["a", "b"]);
  set("a broken check list", "checks_passed", ["a", 3]);
  set("no failures (defaulted)", "failures", undefined);
  set("failures not a list", "failures", "none");
  set("no agent", "agent", undefined);
  set("agent a number", "agent", 5);
  set("no rubric", "rubric", null);
  set("a rubric without its dimensions", "rubric", { profile: "generic" });
  set("a Skill's use recorded", "skill_usage", [
    {
      skill: "x",
      invoked: true,
      files_read: ["SKILL.md"],
      scripts_run: [],
      coverage: 0.5,
      files: ["SKILL.md", "ref.md"],
    },
  ]);
  set("another Skill's use, with its key files", "skill_usage", [
    {
      skill: "y",
      invoked: false,
      files_read: [],
      scripts_run: ["run.sh"],
      coverage: 1,
      files: ["run.sh"],
      key_files: ["run.sh"],
    },
  ]);
  set("a Skill's use without its files", "skill_usage", [{ skill: "x", invoked: true }]);
  set("the task a number", "task", 7);
  set("an unknown field", "extra_field", { anything: true });
  set("no schema", "schema", undefined);
  out.push(["not an object", [r]]);
  out.push(["null", null]);
  return out;
}

describe("DigestParser", () => {
  const cases = reports.flatMap((r, i) =>
    variants(r).map(([name, json]) => [`report ${i}: ${name}`, json] as const),
  );

  it("answers as the whole schema, for each input met once", () => {
    for (const [name, json] of cases)
      expect(byParser(new DigestParser(), json), name).toStrictEqual(whole(json));
  });

  it("answers as the whole schema when the same values come again, in any order", () => {
    // One parser over every case, three times over (forward, backward, forward): each repeating
    // value is met first, then again (remembered), then again after others pushed it out.
    const p = new DigestParser();
    const order = [...cases, ...cases.slice().reverse(), ...cases];
    for (const [name, json] of order)
      expect(byParser(p, clone(json)), name).toStrictEqual(whole(json));
  });

  it("gives digests with the same fields in the same order, once through digestOf", () => {
    // The parser's object lists the repeating fields last; digestOf (compactDigest) writes every
    // digest's fields in one fixed order, so what is held and indexed does not depend on it.
    const p = new DigestParser();
    for (const [name, json] of cases) {
      const w = ReportDigestSchema.safeParse(json);
      const r = p.parse(json);
      if (!w.success || !r.success) continue;
      expect(JSON.stringify(digestOf(r.data)), name).toBe(JSON.stringify(digestOf(w.data)));
    }
  });

  it("refuses what the whole schema refuses, naming the same field", () => {
    const json = clone(reports[0] ?? {});
    json.checks_failed = [1];
    const p = new DigestParser();
    expect(p.parse(clone(reports[0])).success).toBe(true);
    const r = p.parse(json);
    expect(r.success).toBe(false);
    if (!r.success) expect(issuesText(r.error)).toMatch(/^checks_failed\.0: /);
  });
});
