import { sha256 } from "../util/hash.js";

/**
 * `skillbench-task:<12 hex>`: sha256 of the build context's tree hash and the agent version
 * (an image is reused while both are unchanged; docs/sandbox.md "docker details"). Pure.
 */
export function taskImageTag(contextHash: string, agentVersion: string): string {
  return `skillbench-task:${sha256(`${contextHash}\n${agentVersion}`).slice(0, 12)}`;
}

/** `claude --version` output -> the version number, e.g. "2.1.328 (Claude Code)" -> "2.1.328". Pure. */
export function parseAgentVersion(out: string): string | null {
  const m = /(\d+\.\d+\.\d+\S*)/.exec(out);
  return m?.[1] ?? (out.trim() || null);
}

/**
 * Docker memory syntax (`256m`, `1g`, `512M`, bytes) -> bytes; null when it does not parse. Pure.
 */
export function parseMemory(s: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(s.trim());
  if (!m?.[1]) return null;
  const unit = (m[2] ?? "").toLowerCase();
  const mult = unit === "g" ? 1024 ** 3 : unit === "m" ? 1024 ** 2 : unit === "k" ? 1024 : 1;
  return Math.round(Number(m[1]) * mult);
}

/** The OOM-kill counter from cgroup v1 `memory.oom_control` or v2 `memory.events` text. Pure. */
export function parseOomKills(text: string): number | null {
  const m = /^oom_kill\s+(\d+)\s*$/m.exec(text);
  return m?.[1] ? Number(m[1]) : null;
}
