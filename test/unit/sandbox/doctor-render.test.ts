import { describe, expect, it } from "vitest";
import { renderDoctor, worstStatus, type DoctorCheck } from "../../../src/doctor/index.js";

const ok: DoctorCheck = { name: "claude binary", status: "ok", detail: "2.1.328", fix: null };
const warn: DoctorCheck = {
  name: "docker",
  status: "warn",
  detail: "daemon down",
  fix: "start dockerd",
};
const fail: DoctorCheck = { name: "x", status: "fail", detail: "broken", fix: "repair" };

describe("doctor rendering", () => {
  it.each([
    [[ok], "ok"],
    [[ok, warn], "warn"],
    [[warn, fail, ok], "fail"],
  ] as const)("worst of %j is %s", (checks, s) => expect(worstStatus(checks)).toBe(s));

  it("prints each check and its fix", () => {
    const text = renderDoctor({ checks: [ok, warn], status: "warn" });
    expect(text).toContain("[ok  ] claude binary  2.1.328");
    expect(text).toContain("[WARN] docker         daemon down");
    expect(text).toContain("fix: start dockerd");
    expect(text).toContain("overall: warn");
  });
});
