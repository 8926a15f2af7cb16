import { describe, expect, it } from "vitest";
import { keptProbes, type ProbeOptions } from "../../../src/sandbox/probe.js";
import type { SandboxProbe } from "../../../src/sandbox/index.js";

const ANSWER: SandboxProbe = { dockerDaemon: null, dockerBaseImage: null, bwrap: true };

/** A probe that counts its calls, answering ANSWER (or failing while `fail` is set). */
function counting(): {
  calls: ProbeOptions[];
  fail: boolean;
  probe: (o: ProbeOptions) => Promise<SandboxProbe>;
} {
  const state = {
    calls: [] as ProbeOptions[],
    fail: false,
    probe: (o: ProbeOptions) => {
      state.calls.push(o);
      return state.fail ? Promise.reject(new Error("probe failed")) : Promise.resolve(ANSWER);
    },
  };
  return state;
}

describe("keptProbes", () => {
  it("asks once per set of options within the time kept, again after it", async () => {
    let now = 1_000;
    const c = counting();
    const probe = keptProbes(60_000, c.probe, () => now);
    const opts = { docker: "if-needed", dockerfileAuto: false } as const;
    expect(await probe(opts)).toEqual(ANSWER);
    now += 59_999;
    expect(await probe({ ...opts, signal: new AbortController().signal })).toEqual(ANSWER);
    expect(c.calls).toHaveLength(1);
    // Other options are another question.
    await probe({ docker: "if-needed", dockerfileAuto: true });
    await probe({ docker: "always" });
    expect(c.calls).toHaveLength(3);
    now += 1;
    await probe(opts);
    expect(c.calls).toHaveLength(4);
  });

  it("does not keep a failed answer", async () => {
    const c = counting();
    const probe = keptProbes(60_000, c.probe, () => 0);
    c.fail = true;
    await expect(probe()).rejects.toThrow("probe failed");
    c.fail = false;
    expect(await probe()).toEqual(ANSWER);
    expect(await probe()).toEqual(ANSWER);
    expect(c.calls).toHaveLength(2);
  });
});
