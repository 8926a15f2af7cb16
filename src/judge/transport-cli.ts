import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { killMarked, runProcess, RUN_MARKER_VAR } from "../util/process.js";
import type { ActiveJudgeConfig } from "./config.js";
import { buildJudgeEnv } from "./env.js";
import type { JudgeReply, JudgeTransport } from "./types.js";

/**
 * The judge through the `claude` CLI (facts 7.1, transport B): `claude -p ""`
 * with the prompt on stdin, no tools, no session kept, in a private empty cwd
 * with a private HOME/config/tmp, and the judge's own environment.
 */

function judgeCliArgs(model: string): string[] {
  return [
    "-p",
    "",
    "--output-format",
    "stream-json",
    "--verbose",
    "--dangerously-skip-permissions",
    "--model",
    model,
    "--tools",
    "",
    "--no-session-persistence",
  ];
}

const ResultEventSchema = z.looseObject({
  type: z.literal("result"),
  is_error: z.boolean().optional(),
  result: z.string().nullable().optional(),
  total_cost_usd: z.number().optional(),
  usage: z
    .looseObject({ input_tokens: z.number().optional(), output_tokens: z.number().optional() })
    .optional(),
  errors: z.array(z.string()).optional(),
});

/** The last `result` event of a stream-json transcript as a reply; null when there is none. Pure. */
function replyFromStream(stdout: string): JudgeReply | null {
  let found: z.infer<typeof ResultEventSchema> | null = null;
  for (const line of stdout.split("\n")) {
    if (!line.includes('"result"')) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const r = ResultEventSchema.safeParse(raw);
    if (r.success) found = r.data;
  }
  if (found === null) return null;
  if (found.is_error === true) {
    const why = found.result ?? found.errors?.join("; ") ?? "unknown error";
    return { ok: false, error: `claude judge reported an error: ${why.slice(0, 300)}` };
  }
  const u = found.usage;
  return {
    ok: true,
    text: found.result ?? "",
    tokens: u ? { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0 } : null,
    costUsd: found.total_cost_usd ?? null,
  };
}

export interface CliTransportOptions {
  bin: string;
  config: ActiveJudgeConfig;
  hostEnv: Record<string, string | undefined>;
  /** Where the private per-call folders go (removed after each call); default the OS temp dir. */
  scratchDir?: string | undefined;
}

export function cliTransport(o: CliTransportOptions): JudgeTransport {
  return async (prompt, signal): Promise<JudgeReply> => {
    const parent = o.scratchDir ?? os.tmpdir();
    await mkdir(parent, { recursive: true });
    const root = await mkdtemp(path.join(parent, "skillbench-judge-"));
    try {
      const dirs = {
        cwd: path.join(root, "cwd"),
        home: path.join(root, "home"),
        cfg: path.join(root, "config"),
        tmp: path.join(root, "tmp"),
      };
      await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })));
      const env = buildJudgeEnv({
        hostEnv: o.hostEnv,
        config: o.config,
        home: dirs.home,
        configDir: dirs.cfg,
        tmpDir: dirs.tmp,
      });
      const marker = randomUUID();
      const out: Buffer[] = [];
      let stderr = "";
      const proc = await runProcess({
        cmd: o.bin,
        args: judgeCliArgs(o.config.model),
        cwd: dirs.cwd,
        env: { ...env, [RUN_MARKER_VAR]: marker },
        timeoutMs: o.config.timeoutMs,
        signal,
        stdin: prompt,
        onStdout: (c) => {
          out.push(c);
        },
        onStderr: (c) => {
          if (stderr.length < 4000) stderr += c.toString("utf8");
        },
      });
      await killMarked(marker);
      if (proc.spawnError)
        return { ok: false, error: `could not start ${o.bin}: ${proc.spawnError}` };
      if (proc.killedFor === "timeout")
        return { ok: false, error: `timeout after ${Math.round(o.config.timeoutMs / 1000)}s` };
      if (proc.killedFor === "abort") return { ok: false, error: "judge call cancelled" };
      const reply = replyFromStream(Buffer.concat(out).toString("utf8"));
      if (reply) return reply;
      const tail = stderr.replace(/\s+/g, " ").trim().slice(-300);
      return {
        ok: false,
        error: `claude judge exited ${String(proc.exitCode ?? proc.signal)} without a result event${tail ? `: ${tail}` : ""}`,
      };
    } finally {
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    }
  };
}
