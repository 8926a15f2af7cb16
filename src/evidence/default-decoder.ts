/**
 * The decoder the library's entry points (parseEvidence, parseEvidenceFile) use when the caller
 * names none: the default agent's (Claude Code's stream-json). Pure.
 */
import type { Evidence } from "../core/evidence.js";

export interface EvidenceOptions {
  /** Absolute path of the agent's cwd; paths inside it are made relative. */
  workspace?: string;
  /** Relative paths that existed in the workspace before the agent ran. */
  preexisting?: ReadonlySet<string>;
  /** Tool text kept at full size before later texts are cut short (default TOOL_TEXT_BUDGET). */
  toolTextBudget?: number;
}

/** Anything that turns stream lines into Evidence (each agent driver has one: src/agents). */
export interface LineDecoder {
  pushLine(line: string): void;
  finish(opts?: { truncated?: boolean }): Evidence;
}

type DecoderFactory = (opts?: EvidenceOptions) => LineDecoder;

/**
 * Set by the agent registry (src/agents/registry.ts) when it loads: evidence sits below the
 * drivers (they import it), so the registry hands it the default agent's decoder rather than
 * being imported (as with the Skill folders, evidence/paths.ts).
 */
let factory: DecoderFactory | null = null;

export function useDefaultDecoder(f: DecoderFactory): void {
  factory = f;
}

/** A new decoder of the default agent's stream. */
export function defaultDecoder(opts?: EvidenceOptions): LineDecoder {
  if (factory === null)
    throw new Error("evidence: no agent registry loaded (import src/agents/registry.ts first)");
  return factory(opts);
}
