import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import type { RunReport } from "../../../src/core/report.js";
import { comparisonJsonPath, writeComparison } from "../../../src/report/comparison/index.js";
import { makeMetadata, reps } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-compare-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function store(reports: RunReport[], treatments: string[] | null): Promise<void> {
  for (const r of reports) {
    await mkdir(path.join(dir, "runs", r.run_id), { recursive: true });
    await writeFile(path.join(dir, "runs", r.run_id, "report.json"), JSON.stringify(r));
  }
  if (treatments)
    await writeFile(path.join(dir, "metadata.json"), JSON.stringify(makeMetadata(treatments)));
}

describe("writeComparison", () => {
  it("writes comparison_report.md and comparison.json beside the runs", async () => {
    await store([...reps("CONTROL", 2, [1]), ...reps("WITH", 2, [1, 2])], ["CONTROL", "WITH"]);
    const files = await writeComparison(dir);
    expect(files).toEqual([
      path.join(dir, "comparison_report.md"),
      path.join(dir, "comparison.json"),
    ]);
    const md = await readFile(files[0]!, "utf8");
    expect(md.startsWith("# skillbench Comparison Report\n")).toBe(true);
    const json: unknown = JSON.parse(await readFile(files[1]!, "utf8"));
    expect(json).toMatchObject({
      schema: "skillbench.comparison.v1",
      roles: { candidate: "WITH", baseline: "CONTROL" },
    });
  });

  it("honours --out and the role options", async () => {
    await store([...reps("CONTROL", 1, [1]), ...reps("A", 1, [1]), ...reps("B", 1, [])], null);
    const out = path.join(dir, "sub", "cmp.md");
    const files = await writeComparison(dir, { out, candidate: "B", baseline: "A" });
    expect(files).toEqual([out, path.join(dir, "sub", "cmp.json")]);
    expect(await readFile(out, "utf8")).toContain("- Candidate: `B`\n- Baseline: `A`");
  });

  it("keeps roles chosen once in metadata.json, so that a later render compares the same way", async () => {
    await store(
      [...reps("CONTROL", 1, [1]), ...reps("A", 1, [1]), ...reps("B", 1, [])],
      ["CONTROL", "A", "B"],
    );
    await writeComparison(dir, { candidate: "B", baseline: "A" });
    const meta: unknown = JSON.parse(await readFile(path.join(dir, "metadata.json"), "utf8"));
    expect(meta).toMatchObject({ comparison_roles: { candidate: "B", baseline: "A" } });
    await writeComparison(dir);
    expect(await readFile(path.join(dir, "comparison_report.md"), "utf8")).toContain(
      "- Candidate: `B`\n- Baseline: `A`",
    );
  });

  it("falls back to the default roles when the stored ones name a treatment no longer there", async () => {
    await store([...reps("CONTROL", 1, [1]), ...reps("A", 1, [1])], ["CONTROL", "A"]);
    const meta: unknown = JSON.parse(await readFile(path.join(dir, "metadata.json"), "utf8"));
    await writeFile(
      path.join(dir, "metadata.json"),
      JSON.stringify({ ...(meta as object), comparison_roles: { candidate: "GONE" } }),
    );
    await writeComparison(dir);
    expect(await readFile(path.join(dir, "comparison_report.md"), "utf8")).toContain(
      "- Candidate: `A`",
    );
    // Named on the command line, an unknown treatment is still an error.
    await expect(writeComparison(dir, { candidate: "GONE" })).rejects.toThrow(InputError);
  });

  it("ignores reports outside the planned matrix of metadata.json", async () => {
    const reports = [
      ...reps("CONTROL", 2, [1]),
      ...reps("WITH", 2, [1, 2]),
      ...reps("OLD", 1, [1]),
    ];
    await store(reports, null);
    const meta = {
      ...makeMetadata(["CONTROL", "WITH"]),
      matrix: reports.filter((r) => r.treatment !== "OLD").map((r) => ({ run_id: r.run_id })),
    };
    await writeFile(path.join(dir, "metadata.json"), JSON.stringify(meta));
    const [, jsonFile] = await writeComparison(dir);
    const json: unknown = JSON.parse(await readFile(jsonFile!, "utf8"));
    expect(json).toMatchObject({ treatments: ["CONTROL", "WITH"] });
  });

  it.each([
    {
      name: "no reports",
      reports: [] as RunReport[],
      opts: {},
      msg: ": no run reports found: run a suite first",
    },
    {
      name: "one treatment",
      reports: reps("CONTROL", 2, [1]),
      opts: {},
      msg: ": only one treatment (CONTROL): a comparison needs two",
    },
    {
      name: "unknown candidate",
      reports: [...reps("CONTROL", 1, [1]), ...reps("A", 1, [1])],
      opts: { candidate: "Z" },
      msg: ": --candidate Z: unknown treatment; available: CONTROL, A",
    },
  ])("$name → InputError", async ({ reports, opts, msg }) => {
    await mkdir(path.join(dir, "runs"), { recursive: true });
    await store(reports, null);
    const err = await writeComparison(dir, opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err instanceof Error ? err.message : "").toBe(`${dir}${msg}`);
  });

  it.each([
    { out: undefined, want: "comparison.json" },
    { out: "x/report.md", want: "x/report.json" },
    { out: "x/report", want: "x/report.json" },
    { out: "x/report.json", want: "x/report.json.json" },
  ])("comparisonJsonPath($out)", ({ out, want }) => {
    expect(comparisonJsonPath("", out)).toBe(want);
  });
});
