/**
 * Reads what the span tree of one stored run needs from its folder (docs/telemetry.md): the
 * evidence (events.json), the stdout line times (stdout.times), where each tool call and its
 * result sit in stdout.jsonl, and the validator outcomes (validation.json).
 */
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { EvidenceSchema, type Evidence } from "../core/evidence.js";
import type { RunReport } from "../core/report.js";
import { runPaths } from "../store/layout.js";
import { LineSplitter } from "../util/lines.js";
import type { RunTraceInput, ValidatorTiming } from "./plan-run.js";

const ValidationScriptsSchema = z.object({
  scripts: z.array(
    z
      .object({
        script: z.string(),
        status: z.string(),
        exit_code: z.number().nullable(),
        duration_ms: z.number(),
        passed: z.array(z.string()),
        failed: z.array(z.string()),
      })
      .passthrough(),
  ),
});

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as unknown;
  } catch {
    return null;
  }
}

/** One epoch-ms number per stdout line; null when the run has no stdout.times. */
export async function readLineTimes(file: string): Promise<number[] | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return null;
  }
  const out = text
    .split("\n")
    .filter((l) => l !== "")
    .map(Number);
  return out.every(Number.isFinite) ? out : null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The stdout lines of each tool call (its tool_use block) and of its first tool_result, by tool
 * use id. Streams the file; a line is parsed only when it can hold such a block.
 */
export async function scanToolLines(
  file: string,
): Promise<Map<string, { use: number; result: number | null }>> {
  const out = new Map<string, { use: number; result: number | null }>();
  let lineNo = 0;
  const onLine = (line: string): void => {
    lineNo += 1;
    if (!line.includes('"tool_use"') && !line.includes('"tool_result"')) return;
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch {
      return;
    }
    if (!isRecord(ev) || !isRecord(ev["message"])) return;
    const content = ev["message"]["content"];
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isRecord(b)) continue;
      if (b["type"] === "tool_use" && typeof b["id"] === "string" && !out.has(b["id"]))
        out.set(b["id"], { use: lineNo, result: null });
      if (b["type"] === "tool_result" && typeof b["tool_use_id"] === "string") {
        const hit = out.get(b["tool_use_id"]);
        if (hit && hit.result === null) hit.result = lineNo;
      }
    }
  };
  const splitter = new LineSplitter();
  try {
    for await (const chunk of createReadStream(file)) splitter.push(chunk as Buffer, onLine);
    const rest = splitter.flush();
    if (rest.length > 0) onLine(rest);
  } catch {
    /* no stdout: no tool lines */
  }
  return out;
}

export async function readRunTraceInput(
  outDir: string,
  report: RunReport,
  scriptedModel: boolean,
): Promise<RunTraceInput> {
  const p = runPaths(outDir, report.run_id);
  const ev = EvidenceSchema.safeParse(await readJson(p.events));
  const evidence: Evidence | null = ev.success ? ev.data : null;
  const val = ValidationScriptsSchema.safeParse(await readJson(p.validation));
  const validators: ValidatorTiming[] = val.success ? val.data.scripts : [];
  const [lineTimes, toolLines] = await Promise.all([
    readLineTimes(p.stdoutTimes),
    scanToolLines(p.stdout),
  ]);
  return { report, evidence, lineTimes, toolLines, validators, scriptedModel };
}
