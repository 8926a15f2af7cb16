import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileManifest, loadManifest } from "../../../src/manifest/index.js";
import { loadSuite } from "../../../src/suite/index.js";

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

describe("manifest routeConformance and generatedNodeSkills reach the compiled tasks", () => {
  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    [
      "named task only",
      "  routeConformance: {task: route, expectedNodeOrder: [plan, ship]}\n  generatedNodeSkills: [flow-plan, flow-ship]\n",
      {
        route_conformance_expected_node_order: ["plan", "ship"],
        generated_node_skills: ["flow-plan", "flow-ship"],
      },
      { generated_node_skills: ["flow-plan", "flow-ship"] },
    ],
    [
      "no task named: every task",
      "  route_conformance: {expected_node_order: [plan]}\n",
      { route_conformance_expected_node_order: ["plan"] },
      { route_conformance_expected_node_order: ["plan"] },
    ],
  ])("%s", async (_l, extra, wantRoute, wantOther) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-manifest-route-"));
    roots.push(dir);
    const skill = path.join(dir, "skill");
    await mkdir(skill, { recursive: true });
    await writeFile(path.join(skill, "SKILL.md"), "---\nname: flow\n---\nBody\n");
    const task = (n: string): string =>
      `    - name: ${n}\n      prompt: p\n      expect: {files: [a.txt]}\n`;
    await writeFile(
      path.join(skill, "eval.yaml"),
      "apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\nmetadata: {name: x}\n" +
        "skill: {name: flow, profile: authoring-skill}\nevaluation:\n  tasks:\n" +
        task("route") +
        task("other") +
        extra,
    );
    const m = await loadManifest(path.join(skill, "eval.yaml"));
    const out = path.join(dir, "suite");
    await compileManifest(m, { outDir: out });
    const suite = await loadSuite(out);
    const ev = (n: string) => suite.tasks.find((t) => t.name === n)?.evaluation;
    expect(ev("route")).toMatchObject(wantRoute);
    expect(ev("other")).toMatchObject(wantOther);
    if (!("route_conformance_expected_node_order" in wantOther))
      expect(ev("other")).not.toHaveProperty("route_conformance_expected_node_order");
  });
});
