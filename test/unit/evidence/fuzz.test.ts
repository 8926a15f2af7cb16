import { describe, expect, it } from "vitest";
import { EvidenceSchema } from "../../../src/core/evidence.js";
import { EvidenceBuilder } from "../../../src/agents/claude/decoder.js";
import { parseEvidence } from "../../../src/evidence/index.js";
import { init, lines, result, toolResult, toolUse } from "./events.js";

/** Small deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALID = lines(
  init(),
  toolUse("a", "Bash", { command: "ls .claude/skills/x/" }),
  toolResult("a", [{ type: "text", text: "out" }]),
  toolUse("b", "Write", { file_path: "/ws/f", content: "c" }),
  toolResult("b", "ok", false, { type: "create" }),
  result({
    usage: { input_tokens: 1 },
    modelUsage: { m: { inputTokens: 1 } },
    permission_denials: [1],
  }),
);

/** Values of odd types to put where the parser expects something else. */
const ODD: unknown[] = [
  null,
  0,
  -1,
  1e308,
  "x",
  "",
  true,
  [],
  [null],
  {},
  { type: "text" },
  { __proto__: 1 },
  "true",
];

function mutateJson(value: unknown, r: () => number, depth = 0): unknown {
  if (r() < 0.15) return ODD[Math.floor(r() * ODD.length)];
  if (Array.isArray(value)) return value.map((v) => mutateJson(v, r, depth + 1));
  if (typeof value === "object" && value !== null && depth < 8) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (r() > 0.1) out[k] = mutateJson(v, r, depth + 1);
    return out;
  }
  return value;
}

describe("never throws, whatever the input", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("random bytes, seed %i", (seed) => {
    const r = rng(seed);
    const bytes = Buffer.from(
      Array.from({ length: 4000 }, () => (r() < 0.05 ? 10 : Math.floor(r() * 256))),
    );
    const ev = parseEvidence(bytes.toString("latin1"));
    expect(EvidenceSchema.safeParse(ev).success).toBe(true);
  });

  it.each([11, 12, 13, 14, 15, 16, 17, 18])(
    "cut and spliced valid transcripts, seed %i",
    (seed) => {
      const r = rng(seed);
      let t = VALID;
      for (let i = 0; i < 20; i += 1) {
        const at = Math.floor(r() * t.length);
        const len = Math.floor(r() * 40);
        t =
          r() < 0.5
            ? t.slice(0, at) + t.slice(at + len)
            : t.slice(0, at) + VALID.slice(len, len + 30) + t.slice(at);
      }
      expect(EvidenceSchema.safeParse(parseEvidence(t, { workspace: "/ws" })).success).toBe(true);
    },
  );

  it.each([21, 22, 23, 24, 25, 26, 27, 28, 29, 30])("type-confused events, seed %i", (seed) => {
    const r = rng(seed);
    const b = new EvidenceBuilder({ workspace: "/ws", preexisting: new Set(["f"]) });
    for (const l of VALID.trim().split("\n")) {
      for (let k = 0; k < 5; k += 1) b.pushLine(JSON.stringify(mutateJson(JSON.parse(l), r)));
    }
    expect(EvidenceSchema.safeParse(b.finish({ truncated: true })).success).toBe(true);
  });
});
