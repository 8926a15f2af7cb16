import { describe, expect, it } from "vitest";
import {
  classifyArms,
  type ArmObservation,
  type HostObservation,
} from "../../../src/analysis/arm-check.js";

const FACTS = {
  agent: "/bin/claude@2.0.0",
  model: "m",
  sandbox: "bwrap",
  timeout_sec: "60",
  interaction: "none/1",
  profile: "generic",
};

function arm(over: Partial<ArmObservation> = {}): ArmObservation {
  return {
    task: "t",
    treatment: "CONTROL",
    agent: "claude",
    skillsDir: ".claude/skills",
    skillFolders: ["claude"],
    declared: [],
    found: [],
    settings: "",
    declaresSettings: false,
    declaresProfile: false,
    facts: FACTS,
    ...over,
  };
}
const skilled = (over: Partial<ArmObservation> = {}): ArmObservation =>
  arm({
    treatment: "CANDIDATE",
    declared: [{ name: "s", hash: "h1" }],
    found: [{ folder: "claude", name: "s", hash: "h1" }],
    ...over,
  });

const host = (over: Partial<HostObservation> = {}): HostObservation => ({
  agent: "claude",
  hostSkills: [],
  leakingEnv: [],
  ...over,
});

const got = (arms: ArmObservation[], hosts: HostObservation[] = []) =>
  classifyArms(arms, hosts).map((p) => [p.kind, p.treatment, p.subject]);

describe("classifyArms", () => {
  it.each<[string, ArmObservation[], HostObservation[], Array<[string, string | null, string]>]>([
    ["sound arms", [arm(), skilled()], [host()], []],
    [
      "CONTROL's workspace holds the Skill (the task's environment/ ships it)",
      [arm({ found: [{ folder: "claude", name: "s", hash: "h1" }] }), skilled()],
      [],
      [["arm_mismatch", "CONTROL", "s"]],
    ],
    [
      "the treatment's Skill is missing where the agent discovers it",
      [arm(), skilled({ found: [] })],
      [],
      [["arm_mismatch", "CANDIDATE", "s"]],
    ],
    [
      "the installed copy is not the frozen one",
      [arm(), skilled({ found: [{ folder: "claude", name: "s", hash: "h2" }] })],
      [],
      [["arm_mismatch", "CANDIDATE", "s"]],
    ],
    [
      "a Skill folder the agent does not read (installed where it does not discover Skills)",
      [
        skilled({
          skillsDir: ".agents/skills",
          found: [],
        }),
      ],
      [],
      [
        ["arm_mismatch", "CANDIDATE", ".agents/skills"],
        ["arm_mismatch", "CANDIDATE", "s"],
      ],
    ],
    [
      "settings differ between arms that declare none",
      [arm(), skilled({ settings: "claude=sha256:x" })],
      [],
      [["arm_mismatch", "CANDIDATE", "settings"]],
    ],
    [
      "settings differ where the treatment declares hooks: allowed",
      [arm(), skilled({ settings: "claude=sha256:x", declaresSettings: true })],
      [],
      [],
    ],
    [
      "a fact differs (another timeout); a declared profile is allowed",
      [
        arm(),
        skilled({
          facts: { ...FACTS, timeout_sec: "120", profile: "workflow" },
          declaresProfile: true,
        }),
      ],
      [],
      [["arm_mismatch", "CANDIDATE", "timeout_sec"]],
    ],
    [
      "a host Skill of the same name is reported; an environment pointing at the host HOME is a mismatch",
      [arm(), skilled()],
      [
        host({
          hostSkills: [{ name: "s", path: "/home/u/.claude/skills/s" }],
          leakingEnv: ["HOME"],
        }),
      ],
      [
        ["host_skill_shadow", null, "s"],
        ["arm_mismatch", null, "HOME"],
      ],
    ],
  ])("%s", (_name, arms, hosts, want) => expect(got(arms, hosts)).toEqual(want));
});
