import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { buildCalibration, calibrationDifferences } from "../../../src/report/calibration/build.js";
import {
  experimentFingerprintOf,
  fingerprintDrift,
  fingerprintKey,
  type RunFingerprint,
  type StoredExperiment,
} from "../../../src/plan/fingerprint.js";
import { makeReport } from "./helpers.js";

const base: RunFingerprint = {
  task: "greet",
  agent: "claude-code",
  agent_version: "2.1.0",
  model: "CLI default",
  endpoint: "scripted",
  endpoint_at: "sha256:aaaa",
  task_hash: "sha256:1111111111111111111111",
  sandbox: "bwrap",
  profile: "generic",
  judge: "off",
  interaction: "none",
  interaction_settings: "sha256:cccc",
  timeout_sec: "600",
  skills: "none",
};

describe("fingerprintDrift", () => {
  const cases: [string, Partial<RunFingerprint>, Partial<RunFingerprint>, string[]][] = [
    ["equal", {}, {}, []],
    [
      "scripted vs live, with script and host",
      {},
      { endpoint: "live", endpoint_at: "http://127.0.0.1:9" },
      ["endpoint: frozen scripted model sha256:aaaa, now live endpoint http://127.0.0.1:9"],
    ],
    [
      "live vs scripted, the old side without a recorded host",
      { endpoint: "live", endpoint_at: null },
      {},
      ["endpoint: frozen live endpoint, now scripted model sha256:aaaa"],
    ],
    [
      "another script",
      {},
      { endpoint_at: "sha256:bbbb" },
      ["endpoint: frozen scripted model sha256:aaaa, now scripted model sha256:bbbb"],
    ],
    ["script not recorded on one side: not compared", { endpoint_at: null }, {}, []],
    [
      "sandbox as resolved",
      {},
      { sandbox: "local" },
      ["task greet: sandbox: frozen bwrap, now local"],
    ],
    [
      "judge",
      {},
      { judge: "m via http, 1 sample(s)" },
      ["judge: frozen off, now m via http, 1 sample(s)"],
    ],
    [
      "interaction",
      {},
      { interaction: "auto_user, 5 turns max" },
      ["task greet: interaction: frozen none, now auto_user, 5 turns max"],
    ],
    [
      "task content",
      {},
      { task_hash: "sha256:2222222222222222222222" },
      ["task greet: content changed (frozen sha256:111111111111, now sha256:222222222222)"],
    ],
    ["timeout", {}, { timeout_sec: "30" }, ["task greet: timeout_sec: frozen 600, now 30"]],
    ["model", {}, { model: "other" }, ["model: frozen CLI default, now other"]],
  ];
  it.each(cases)("%s", (_name, then, now, lines) => {
    expect(fingerprintDrift([{ then: { ...base, ...then }, now: { ...base, ...now } }])).toEqual(
      lines,
    );
  });

  it("lists a difference once over many runs, with the sides' labels", () => {
    const pair = { then: base, now: { ...base, agent_version: "2.2.0" } };
    expect(fingerprintDrift([pair, pair], { then: "A", now: "B" })).toEqual([
      "agent version: A 2.1.0, B 2.2.0",
    ]);
  });
});

describe("fingerprintKey", () => {
  it("is equal for equal fingerprints and differs with any field", () => {
    expect(fingerprintKey({ ...base })).toBe(fingerprintKey(base));
    expect(fingerprintKey({ ...base, judge: null })).not.toBe(fingerprintKey(base));
  });
});

describe("experimentFingerprintOf", () => {
  it("reads metadata.json's fingerprint, else only whether the runs were scripted", () => {
    const fp = { endpoint: "live", endpoint_at: "http://h:1", judge: "off" };
    expect(experimentFingerprintOf({ fingerprint: fp }, [])).toEqual(fp);
    expect(experimentFingerprintOf({ model_script: "/s.yaml" }, [])).toEqual({ scripted: true });
    expect(experimentFingerprintOf({ fingerprint: { endpoint: "elsewhere" } }, [])).toEqual({
      scripted: false,
    });
  });
});

describe("calibration lookups use the same fingerprint", () => {
  const settings = { treatment: "CONTROL", per_arm: 2, splits: 20, seed: 1, margin: 0.05 };
  const runs = (
    n: number,
    judge: string,
  ): { reports: RunReport[]; experiment: StoredExperiment } => ({
    reports: Array.from({ length: n }, (_, i) =>
      makeReport({ task: "steady", treatment: "CONTROL", rep: i + 1, passed: i % 2 === 0 }),
    ),
    experiment: { endpoint: "live", endpoint_at: "http://127.0.0.1:9", judge },
  });
  it("a judge other than the calibration's is named; the same settings match", () => {
    const then = runs(4, "off");
    const cal = buildCalibration({
      reports: then.reports,
      settings,
      experimentId: "cal",
      scripted: false,
      experiment: then.experiment,
    });
    const same = runs(2, "off");
    expect(calibrationDifferences(cal, same.reports, false, same.experiment)).toEqual([]);
    const other = runs(2, "m via http, 1 sample(s)");
    expect(calibrationDifferences(cal, other.reports, false, other.experiment)).toEqual([
      "judge: calibrated off, now m via http, 1 sample(s)",
    ]);
    const elsewhere = { ...same.experiment, endpoint_at: "http://127.0.0.1:10" };
    expect(calibrationDifferences(cal, same.reports, false, elsewhere)).toEqual([
      "endpoint: calibrated live endpoint http://127.0.0.1:9, now live endpoint http://127.0.0.1:10",
    ]);
  });
});
