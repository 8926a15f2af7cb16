/**
 * What a skillbench process leaves behind when it dies without cleaning up (kill -9, a crash, a
 * power cut): docker containers and temporary run folders. Both carry the experiment id and the
 * owning process's pid (container labels; folder names), so that any later `run` (a `--resume`
 * of that experiment included) and `doctor --fix` remove those whose process is gone, and never
 * those of a skillbench still running. See docs/sandbox.md.
 */
import { readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { tempOwner } from "../util/temp-names.js";
import { capture, whichSync } from "./exec.js";

export { tempOwner, tempStem } from "../util/temp-names.js";

const LABEL_EXPERIMENT = "skillbench.experiment";
const LABEL_PID = "skillbench.pid";
const LABEL_HOST = "skillbench.host";

/** `--label` arguments naming this process as the container's owner. */
export function ownerLabels(experimentId: string | undefined): string[] {
  return [
    "--label",
    `${LABEL_PID}=${process.pid}`,
    "--label",
    `${LABEL_HOST}=${os.hostname()}`,
    ...(experimentId ? ["--label", `${LABEL_EXPERIMENT}=${experimentId}`] : []),
  ];
}

/** True while process `pid` exists (EPERM: it exists, as another user's). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface LeftoverReport {
  containers: string[];
  folders: string[];
}

export interface LeftoverOptions {
  /** Where the temporary run folders are made (default the OS temp dir). */
  tmpDirs?: string[];
  /** Only report, remove nothing. */
  dryRun?: boolean;
  alive?: (pid: number) => boolean;
  signal?: AbortSignal | undefined;
}

/** Containers labelled by a skillbench process of this host that is gone. */
async function deadContainers(
  dockerBin: string,
  alive: (pid: number) => boolean,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const ps = await capture(
    dockerBin,
    [
      "ps",
      "-a",
      "--filter",
      `label=${LABEL_PID}`,
      "--format",
      `{{.Names}}\t{{.Label "${LABEL_PID}"}}\t{{.Label "${LABEL_HOST}"}}`,
    ],
    { timeoutMs: 15_000, signal },
  );
  if (ps.code !== 0) return [];
  const host = os.hostname();
  const out: string[] = [];
  for (const line of ps.stdout.split("\n")) {
    const [name, pid, h] = line.split("\t");
    if (!name || !pid || h !== host) continue;
    if (!alive(Number(pid))) out.push(name);
  }
  return out;
}

/**
 * Find (and unless `dryRun`, remove) the containers and temporary folders of skillbench processes
 * that are gone. Never throws; a docker that is absent or does not answer is skipped.
 */
export async function removeLeftovers(o: LeftoverOptions = {}): Promise<LeftoverReport> {
  const alive = o.alive ?? processAlive;
  const report: LeftoverReport = { containers: [], folders: [] };
  const dockerBin = whichSync("docker");
  if (dockerBin) {
    report.containers = await deadContainers(dockerBin, alive, o.signal).catch(() => []);
    if (!o.dryRun && report.containers.length > 0)
      await capture(dockerBin, ["rm", "-f", ...report.containers], {
        timeoutMs: 60_000,
        signal: o.signal,
      });
  }
  for (const dir of [...new Set(o.tmpDirs ?? [os.tmpdir()])]) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const owner = tempOwner(name);
      if (!owner || alive(owner.pid)) continue;
      const p = path.join(dir, name);
      report.folders.push(p);
      if (!o.dryRun)
        await rm(p, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    }
  }
  return report;
}
