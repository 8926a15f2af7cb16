/**
 * Names of skillbench's temporary folders: they carry the experiment id and the owning process's
 * pid, so that leftovers of a process that is gone can be found (src/sandbox/leftovers.ts).
 */
/** Characters safe in a folder or container name. Pure. */
function nameSafe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, "_");
}

/**
 * The name stem of a temporary run folder: `skillbench-<run>-x<experiment>-p<pid>-` (mkdtemp adds
 * six characters). Pure.
 */
export function tempStem(kind: string, experimentId: string | undefined, pid: number): string {
  return `skillbench-${nameSafe(kind)}-x${nameSafe(experimentId ?? "none")}-p${pid}-`;
}

/**
 * The stem of the model relay's short folder (`sbr-p<pid>-`): a unix socket's path has a length
 * limit, so this name stays short, and still names its owner. Pure.
 */
export function relayStem(pid: number): string {
  return `sbr-p${pid}-`;
}

/** The owning pid of a temporary folder named by `tempStem` or `relayStem`, or null for any other name. Pure. */
export function tempOwner(name: string): { pid: number; experimentId: string } | null {
  const m = /^skillbench-.*-x([A-Za-z0-9_.-]+)-p(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  if (m?.[1] && m[2]) return { experimentId: m[1], pid: Number(m[2]) };
  const r = /^sbr-p(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  return r?.[1] ? { experimentId: "none", pid: Number(r[1]) } : null;
}
