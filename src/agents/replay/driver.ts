/**
 * The replay driver plays a stored turn instead of running a CLI: the agent's recorded stream
 * (written through the run's stdout writer, so redaction applies as for a live agent) and the
 * file changes it made. It decodes and classifies exactly as the recorded agent's driver does,
 * so a whole `runSuite` can be run in-process, without a binary or a model server: the tests'
 * way to exercise the runner, and a way to re-run stored evidence through a changed pipeline.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { resolveInside } from "../../util/fs.js";
import { classifyTurn } from "../run-turn.js";
import type { AgentDriver, TurnRequest, TurnResult } from "../types.js";

export interface ReplayTurn {
  /** The agent's stdout, JSONL as the recorded agent printed it. */
  stdout: string;
  stderr?: string;
  /** Workspace-relative path -> new content; null deletes the file. Applied before the stream. */
  files?: Record<string, string | null>;
  exitCode?: number | null;
  signal?: string | null;
}

interface ReplayRequest {
  workspace: string;
  prompt: string;
  resume: string | null;
  /** 0 for the first turn of this workspace, then 1, 2, ... */
  turn: number;
}

export interface ReplayOptions {
  /** The driver whose decoder and workspace layout the recording follows. */
  recorded: AgentDriver;
  /** The turn to play for a request; null plays an agent that printed nothing and exited 1. */
  play: (r: ReplayRequest) => ReplayTurn | null;
  version?: string;
}

export function replayDriver(o: ReplayOptions): AgentDriver {
  const turns = new Map<string, number>();
  const driver: AgentDriver = {
    name: o.recorded.name,
    aliases: o.recorded.aliases,
    reportName: o.recorded.reportName,
    displayName: `replay of ${o.recorded.displayName}`,
    packageName: null,
    api: o.recorded.api,
    skillsDir: o.recorded.skillsDir,
    skillFolders: o.recorded.skillFolders,
    memoryFile: o.recorded.memoryFile,
    installHooks: o.recorded.installHooks,
    telemetryProvider: o.recorded.telemetryProvider,
    spanEnv: o.recorded.spanEnv,
    scriptedTools: o.recorded.scriptedTools,
    toolVocabulary: o.recorded.toolVocabulary,
    retryKnobs: [],
    resolveBinary: () => ({ path: `replay:${o.recorded.name}`, source: "replay" }),
    version: () => Promise.resolve(o.version ?? null),
    prepare: (r) => Promise.resolve({ env: { HOME: r.dirs.home }, baseArgs: [] }),
    command: (r) => o.recorded.command(r),
    decoder: (opts) => o.recorded.decoder(opts),
    cwdInStream: o.recorded.cwdInStream,
    async runTurn(r: TurnRequest): Promise<TurnResult> {
      const started = Date.now();
      const n = turns.get(r.workspace) ?? 0;
      turns.set(r.workspace, n + 1);
      const t = o.play({
        workspace: r.workspace,
        prompt: r.prompt,
        resume: r.resume ?? null,
        turn: n,
      });
      const decoder = o.recorded.decoder({ workspace: r.workspace });
      let lines = 0;
      r.stdout.onLine = (line) => {
        if (line.trim() !== "") lines += 1;
        decoder.pushLine(line);
      };
      for (const [rel, content] of Object.entries(t?.files ?? {})) {
        const abs = resolveInside(r.workspace, rel);
        if (abs === null) throw new Error(`replay: ${rel} is outside the workspace`);
        if (content === null) await rm(abs, { force: true });
        else {
          await mkdir(path.dirname(abs), { recursive: true });
          await writeFile(abs, content);
        }
      }
      if (t) r.stdout.write(Buffer.from(t.stdout));
      if (t?.stderr) r.stderr.write(Buffer.from(t.stderr));
      const rest = r.stdout.endTurn();
      r.stderr.endTurn();
      r.stdout.onLine = null;
      return classifyTurn({
        evidence: decoder.finish(),
        lines,
        partialLastLine: rest.length > 0,
        proc: {
          exitCode: t ? (t.exitCode === undefined ? 0 : t.exitCode) : 1,
          signal: t?.signal ?? null,
          killedFor: null,
          spawnError: null,
          durationMs: Date.now() - started,
        },
        timeoutMs: r.timeoutMs,
        bin: `replay:${o.recorded.name}`,
        stdoutFile: r.stdout.file,
        stderrFile: r.stderr.file,
      });
    },
  };
  return driver;
}
