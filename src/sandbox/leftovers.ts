/**
 * What a skillbench process leaves behind when it dies without cleaning up (kill -9, a crash, a
 * power cut): docker containers and temporary run folders. Both carry the experiment id and the
 * owning process's pid (container labels; folder names), so that any later `run` (a `--resume`
 * of that experiment included) and `doctor --fix` remove those whose process is gone, and never
 * those of a skillbench still running. See docs/sandbox.md.
 */
import { unlinkSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { processAlive, sweepOrphanedMarked } from "../util/process.js";
import { tempOwner } from "../util/temp-names.js";
import { capture, whichSync } from "./exec.js";

export { tempOwner, tempStem } from "../util/temp-names.js";
export { processAlive } from "../util/process.js";

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

const MARKER = /^\.skillbench-container-p(\d+)-([A-Za-z0-9_.-]+)$/;

/**
 * The marker of a container started by process `pid`: an empty file in the OS temp dir, made
 * before `docker run` and removed once the container is, so that a later `run` asks docker for
 * leftover containers only when a process that is gone left a marker (see removeLeftovers).
 */
export function containerMarker(
  name: string,
  pid: number = process.pid,
  dir = os.tmpdir(),
): string {
  return path.join(dir, `.skillbench-container-p${pid}-${name}`);
}

/** Make this process's marker for container `name` (best effort: a leftover scan still finds it by label). */
export function markContainer(name: string): void {
  try {
    writeFileSync(containerMarker(name), "");
  } catch {
    // an unwritable temp dir: `doctor --fix` and runs that use docker still scan by label
  }
}

/** Remove this process's marker for container `name`, once the container is gone. */
export function unmarkContainer(name: string): void {
  try {
    unlinkSync(containerMarker(name));
  } catch {
    // never made, or removed already
  }
}

export interface LeftoverReport {
  containers: string[];
  folders: string[];
  /** Processes that escaped a run under `local` and outlived their skillbench (by run marker). */
  processes: number[];
}

export interface LeftoverOptions {
  /** Where the temporary run folders are made (default the OS temp dir). */
  tmpDirs?: string[];
  /** Only report, remove nothing. */
  dryRun?: boolean;
  alive?: (pid: number) => boolean;
  signal?: AbortSignal | undefined;
  /**
   * When to ask docker for containers of processes that are gone: `always` (the default; `doctor
   * --fix`), or `when-marked`: only when such a process left a container marker (see
   * containerMarker), which every container skillbench starts has while it lives. `run` uses
   * `when-marked` unless it may use docker itself: the docker client costs ~60 ms of CPU per call.
   */
  docker?: "always" | "when-marked" | undefined;
  /** Where the container markers are (default the OS temp dir). */
  markerDir?: string | undefined;
}

/** Containers labelled by a skillbench process of this host that is gone; null: docker did not answer. */
async function deadContainers(
  dockerBin: string,
  alive: (pid: number) => boolean,
  signal: AbortSignal | undefined,
): Promise<string[] | null> {
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
  if (ps.code !== 0) return null;
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
  const report: LeftoverReport = { containers: [], folders: [], processes: [] };
  // Always the real liveness check (not `o.alive`): a process is killed only when the skillbench
  // that started it is truly gone.
  report.processes = sweepOrphanedMarked(processAlive, o.dryRun === true);
  const markerDir = o.markerDir ?? os.tmpdir();
  const deadMarkers = (await readdir(markerDir).catch(() => [] as string[])).filter((n) => {
    const m = MARKER.exec(n);
    return m !== null && !alive(Number(m[1]));
  });
  const dockerBin = whichSync("docker");
  if (dockerBin && ((o.docker ?? "always") === "always" || deadMarkers.length > 0)) {
    const dead = await deadContainers(dockerBin, alive, o.signal).catch(() => null);
    report.containers = dead ?? [];
    if (dead !== null && !o.dryRun) {
      const rmOk =
        dead.length === 0 ||
        (
          await capture(dockerBin, ["rm", "-f", ...dead], {
            timeoutMs: 60_000,
            signal: o.signal,
          })
        ).code === 0;
      // The markers of the dead go once docker has answered and their containers are removed.
      if (rmOk)
        await Promise.all(
          deadMarkers.map((n) =>
            rm(path.join(markerDir, n), { force: true }).catch(() => undefined),
          ),
        );
    }
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
