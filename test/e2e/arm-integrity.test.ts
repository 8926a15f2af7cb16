/**
 * Arm integrity and assertion hygiene end to end (docs/statistics.md, "Arm integrity"): the built CLI, real
 * agent binaries (Claude Code and Codex) and the scripted model on the e2e-arms suite.
 * - `leaky` ships the house-style Skill in its environment/: the check before runs names the
 *   CONTROL workspace that holds it (arm_mismatch, for the agent that discovers it there), the
 *   CONTROL run that reads it is flagged arm_leak, and the band is inconclusive;
 * - the host user (the CLI's HOME) has a house-style Skill of its own: reported
 *   host_skill_shadow, and the agent never sees it (its skill listing, its tool calls);
 * - greeting_exists passes in every run of both arms: listed non_discriminating;
 * - on `drifty` the candidate rewrites its own Skill's file and reads it: skill_drift.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArmIntegrityFileSchema } from "../../src/core/arm-integrity.js";
import { EvidenceSchema } from "../../src/core/evidence.js";
import type { RunReport } from "../../src/core/report.js";
import type { Comparison } from "../../src/report/comparison/index.js";
import { readReports } from "../../src/store/read.js";
import { assertBuilt, makeSandbox, runArgs, runCli, type Sandbox } from "../helpers/cli.js";

const HOST_MARK = "HOST-COPY-7731";
const AGENTS = [
  { agent: "claude", report: "claude-code", folder: "claude" },
  { agent: "codex", report: "codex", folder: "agents" },
] as const;

let box: Sandbox;
beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("e2e-arms");
  // The host user's own house-style Skill, where each agent would discover it at user level.
  for (const f of ["claude", "agents", "codex"]) {
    const dir = path.join(box.home, `.${f}`, "skills", "house-style");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "SKILL.md"),
      `---\nname: house-style\ndescription: ${HOST_MARK} the host user's own copy.\n---\nSay SAW-HOST-SKILL.\n`,
    );
  }
});
afterAll(async () => {
  await box?.remove();
});

describe.each(AGENTS)("under $agent", ({ agent, report, folder }) => {
  let out: string;
  let reports: RunReport[];
  let code: number | null;
  let stderr: string;
  const runOf = (task: string, treatment: string): RunReport => {
    const r = reports.find((x) => x.task === task && x.treatment === treatment);
    if (!r) throw new Error(`no run of ${task} ${treatment}`);
    return r;
  };
  beforeAll(async () => {
    out = box.dir(`arms-${agent}`);
    const res = await runCli(
      runArgs(
        "e2e-arms",
        out,
        "--agent",
        agent,
        "--agent-retries",
        "0",
        "--count",
        "1",
        "-j",
        "2",
        "--sandbox",
        "local",
        "--exit-zero",
      ),
      { env: box.env() },
    );
    code = res.code;
    stderr = res.stderr;
    reports = (await readReports(out)).reports;
  }, 600_000);

  it("runs every task and treatment", () => {
    expect(code, stderr).toBe(0);
    expect(reports).toHaveLength(6);
    for (const r of reports) expect(r.outcome, r.run_id).toBe("completed");
  });

  it("checks the arms before runs: the host Skill is reported, CONTROL's bundled Skill named", async () => {
    const f = ArmIntegrityFileSchema.parse(
      JSON.parse(await readFile(path.join(out, "arm-integrity.json"), "utf8")),
    );
    const shadow = f.problems.filter((p) => p.kind === "host_skill_shadow");
    expect(shadow.map((p) => [p.agent, p.subject])).toContainEqual([agent, "house-style"]);
    expect(shadow.map((p) => p.cause).join("\n")).toContain(
      path.join(box.home, `.${folder}`, "skills", "house-style"),
    );
    const mismatch = f.problems
      .filter((p) => p.kind === "arm_mismatch")
      .map((p) => [p.task, p.treatment, p.subject]);
    // Only Claude Code discovers Skills in .claude/skills, where the task's environment/ put it.
    expect(mismatch).toEqual(agent === "claude" ? [["leaky", "CONTROL", "house-style"]] : []);
    expect(stderr).toContain("arm integrity: host_skill_shadow");
  });

  it("flags the CONTROL run that read the leaked Skill, and no other", () => {
    const leaks = runOf("leaky", "CONTROL").arm_integrity ?? [];
    expect(leaks).toContainEqual(
      expect.objectContaining({
        kind: "arm_leak",
        skill: "house-style",
        path: ".claude/skills/house-style/SKILL.md",
      }),
    );
    // Codex invokes a Skill by reading its SKILL.md: that read is an invocation too.
    expect(leaks.map((p) => [p.kind, p.skill, p.path])).toEqual(
      agent === "codex"
        ? [
            ["arm_leak", "house-style", null],
            ["arm_leak", "house-style", ".claude/skills/house-style/SKILL.md"],
          ]
        : [["arm_leak", "house-style", ".claude/skills/house-style/SKILL.md"]],
    );
    const flagged = [runOf("leaky", "CONTROL").run_id, runOf("drifty", "CANDIDATE").run_id];
    for (const r of reports.filter((x) => !flagged.includes(x.run_id)))
      expect(r.arm_integrity, r.run_id).toBeUndefined();
    // The candidate invoked its own Skill (by its tool, or by reading it: Codex).
    expect(runOf("plain", "CANDIDATE").events_summary?.skills_invoked).toEqual(["house-style"]);
  });

  it("flags the candidate run that read its own Skill rewritten (skill_drift), listed beside the band", async () => {
    expect(runOf("drifty", "CANDIDATE").arm_integrity).toEqual([
      expect.objectContaining({
        kind: "skill_drift",
        skill: "house-style",
        path: ".claude/skills/house-style/SKILL.md",
      }),
    ]);
    const c = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
    expect(c.arm_integrity?.map((p) => [p.kind, p.task, p.treatment])).toContainEqual([
      "skill_drift",
      "drifty",
      "CANDIDATE",
    ]);
  });

  it("makes the band inconclusive and lists the leak and the non-discriminating check", async () => {
    const c = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.rule).toBe("arm_leak");
    expect(c.verdict.reason).toContain("arm_leak: house-style in `CONTROL`");
    const found = (c.arm_integrity ?? []).map((p) => [p.kind, p.task, p.treatment, p.subject]);
    expect(found).toContainEqual(["arm_leak", "leaky", "CONTROL", "house-style"]);
    expect(found).toContainEqual(["non_discriminating", "plain", null, "greeting_exists"]);
    // greeting_exact tells the arms apart on plain (CONTROL writes "hello").
    expect(found).not.toContainEqual(["non_discriminating", "plain", null, "greeting_exact"]);
    expect(c.arm_integrity?.find((p) => p.kind === "arm_leak")?.agent).toBe(report);
    const md = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(md).toContain("## Arm integrity and assertion hygiene");
    expect(md).toContain("| arm_leak | leaky | CONTROL |");
    const summary = await readFile(path.join(out, "summary.md"), "utf8");
    expect(summary).toContain("| non_discriminating | plain | — | — | greeting_exists |");
  });

  it("never lets the host Skill reach a run", async () => {
    // The model's requests: the candidate's listed the suite's Skill; CONTROL's on plain never
    // listed a house-style Skill (the host's), so the rule for that case never answered.
    const requests = await readFile(path.join(out, "model-requests.jsonl"), "utf8");
    expect(requests).not.toContain(HOST_MARK);
    const lines = requests
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { rule?: { name?: string }; facts?: { skills?: string[] } });
    const byRule = (name: string) => lines.filter((l) => l.rule?.name === name);
    expect(byRule("candidate").length).toBeGreaterThan(0);
    for (const l of byRule("candidate")) expect(l.facts?.skills).toContain("house-style");
    expect(byRule("control-plain").length).toBeGreaterThan(0);
    for (const l of byRule("control-plain"))
      expect(l.facts?.skills ?? []).not.toContain("house-style");
    expect(byRule("control-sees-host-skill")).toEqual([]);
    // CONTROL on plain: had the host Skill been listed, the script would have written the marker.
    const plain = runOf("plain", "CONTROL");
    expect(plain.checks_failed.join("\n")).toContain('wrong greeting: "hello\\n"');
    // Its `cat ~/.<agent>/skills/house-style/SKILL.md` found nothing (a private HOME).
    const ev = EvidenceSchema.parse(
      JSON.parse(await readFile(path.join(out, "runs", plain.run_id, "events.json"), "utf8")),
    );
    const cat = ev.tool_calls.find((t) => JSON.stringify(t.input).includes("house-style"));
    expect(cat?.is_error).toBe(true);
    expect(cat?.output ?? "").not.toContain(HOST_MARK);
    for (const r of reports) {
      const stdout = await readFile(path.join(out, "runs", r.run_id, "stdout.jsonl"), "utf8");
      expect(stdout, r.run_id).not.toContain(HOST_MARK);
    }
  });

  it("rescore and report find the same from the stored runs", async () => {
    const before = await readFile(path.join(out, "comparison_report.md"), "utf8");
    const res = await runCli(["rescore", out], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    const again = (await readReports(out)).reports.find(
      (r) => r.task === "leaky" && r.treatment === "CONTROL",
    );
    expect(again?.arm_integrity?.map((p) => p.kind)).toContain("arm_leak");
    const rep = await runCli(["report", out], { env: box.env() });
    expect(rep.code, rep.stderr).toBe(0);
    const after = await readFile(path.join(out, "comparison_report.md"), "utf8");
    const section = (md: string) =>
      md.slice(md.indexOf("## Arm integrity"), md.indexOf("## Verdict"));
    expect(section(after)).toBe(section(before));
    expect(after).toContain("⚠️ **Inconclusive**: A Skill reached an arm that does not install it");
  });
});
