import { InvalidArgumentError } from "commander";
import { z } from "zod";
// Modules of their own, not ../index.js: the commands' registration loads this file (commands/index.ts).
import { InputError } from "../core/errors.js";
import { parseShard, type Shard } from "../plan/shard.js";
import { parseRateLimit } from "../queue/job.js";

/** Argument parsers and helpers shared by the commands. */
export function intArg(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`${name} must be a positive whole number`);
    return n;
  };
}

export function portArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("--port must be a whole number from 0 to 65535");
  return n;
}

/** Print a server's URL and keep it up until Ctrl-C or SIGTERM. */
export async function serveUntilInterrupted(server: {
  url: string;
  close(): Promise<void>;
}): Promise<void> {
  process.stdout.write(`${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stopNow = (): void => void server.close().then(resolve);
    process.once("SIGINT", stopNow);
    process.once("SIGTERM", stopNow);
  });
}

export function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}

export function parseEnvPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf("=");
    if (i <= 0) throw new InputError(`--env ${p}: expected KEY=VALUE`, { field: "--env" });
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

export function parseKs(v: string): number[] {
  const ks = v.split(",").map((s) => Number(s.trim()));
  if (ks.some((k) => !Number.isInteger(k) || k < 1))
    throw new InvalidArgumentError("--ks takes positive whole numbers, e.g. 1,2,5");
  return ks;
}

/** --margin: the non-inferiority margin on Δ pass rate, a number in (0, 1). */
export function marginArg(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n >= 1)
    throw new InvalidArgumentError("--margin must be a number between 0 and 1, e.g. 0.05");
  return n;
}

/** A number from 0 to 1 (e.g. `--judge-alpha-min`). */
export function unitArg(name: string): (v: string) => number {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1)
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1, e.g. 0.67`);
    return n;
  };
}

/** `--shard I/N` (plan/shard.ts). */
export function shardArg(v: string): Shard {
  try {
    return parseShard(v);
  } catch (e) {
    throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
  }
}

const SandboxChoice = z.enum(["auto", "bwrap", "docker", "local"]);

/** `--sandbox` of every command that starts an agent: one list of kinds, one help text. */
export const SANDBOX_HELP =
  "isolation: auto (the default: bwrap, else docker, else local with a warning), bwrap, docker, or local";

export function sandboxArg(v: string): z.infer<typeof SandboxChoice> {
  const parsed = SandboxChoice.safeParse(v);
  if (!parsed.success)
    throw new InvalidArgumentError("--sandbox must be local, bwrap, docker or auto");
  return parsed.data;
}

/** `--preflight`: how much of the task health check runs before the runs (docs/health.md). */
export function preflightArg(v: string): "quick" | "full" | "off" {
  if (v === "quick" || v === "full" || v === "off") return v;
  throw new InvalidArgumentError("--preflight must be quick, full or off");
}

export function rateLimitArg(v: string) {
  const r = parseRateLimit(v);
  if (!r) throw new InvalidArgumentError("--rate-limit takes N/s, N/min or N/h, e.g. 50/min");
  return r;
}
