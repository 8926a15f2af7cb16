import { RoleSchema, type Role } from "./script-schema.js";

/** Which run (and which role in it) a request belongs to, taken from its URL path. Pure. */
export interface RunRef {
  task: string | null;
  treatment: string | null;
  rep: number;
  role: Role;
  /** The run's agent when the URL names one (`<treatment>@<agent>`), else absent. */
  agent?: string;
  /**
   * The run's model when the URL names one (`<treatment>[@<agent>]~<model>`: a treatment that
   * runs on several models), else absent. Rules match the request's own `model` field, not this.
   */
  model?: string;
}

export const DEFAULT_RUN: RunRef = { task: null, treatment: null, rep: 1, role: "subject" };

/**
 * `${serverUrl}/runs/<task>/<treatment>[@<agent>][~<model>]/<rep>/<role>`, each segment
 * URL-encoded. The agent keeps apart the runs of a treatment that runs on several agents (same
 * task and rep), the model those of one that runs on several models.
 */
export function runBaseUrl(
  serverUrl: string,
  run: {
    task: string;
    treatment: string;
    rep: number;
    role: "subject" | "simulator" | "judge";
    agent?: string | undefined;
    model?: string | undefined;
  },
): string {
  const base = serverUrl.replace(/\/+$/, "");
  const withAgent = run.agent === undefined ? run.treatment : `${run.treatment}@${run.agent}`;
  const treatment = run.model === undefined ? withAgent : `${withAgent}~${run.model}`;
  const seg = [run.task, treatment, String(run.rep), run.role].map(encodeURIComponent);
  return `${base}/runs/${seg.join("/")}`;
}

export type ParsedRunPath = { ok: true; run: RunRef; rest: string } | { ok: false; error: string };

/**
 * Split `/runs/<task>/<treatment>/<rep>/<role>/<rest>` (rest starts with `/`).
 * A path without the `/runs/` prefix belongs to DEFAULT_RUN.
 */
export function parseRunPath(pathname: string): ParsedRunPath {
  if (pathname !== "/runs" && !pathname.startsWith("/runs/"))
    return { ok: true, run: { ...DEFAULT_RUN }, rest: pathname };
  const parts = pathname.split("/").slice(2);
  if (parts.length < 4) {
    return {
      ok: false,
      error: `path ${pathname} must look like /runs/<task>/<treatment>/<rep>/<role>/v1/messages`,
    };
  }
  const decoded: string[] = [];
  for (const p of parts.slice(0, 4)) {
    try {
      decoded.push(decodeURIComponent(p));
    } catch {
      return {
        ok: false,
        error: `path ${pathname}: bad URL encoding in segment ${JSON.stringify(p)}`,
      };
    }
  }
  const [task = "", segment = "", repText = "", roleText = ""] = decoded;
  // Names and agents never hold "~", so the first one starts the model (which may hold anything).
  const tilde = segment.indexOf("~");
  const treatmentSeg = tilde < 0 ? segment : segment.slice(0, tilde);
  const model = tilde < 0 ? null : segment.slice(tilde + 1);
  // Names never hold "@" (NAME_PATTERN), so the last one starts the agent.
  const at = treatmentSeg.lastIndexOf("@");
  const treatment = at < 0 ? treatmentSeg : treatmentSeg.slice(0, at);
  const agent = at < 0 ? null : treatmentSeg.slice(at + 1);
  if (!/^[1-9][0-9]*$/.test(repText)) {
    return {
      ok: false,
      error: `path ${pathname}: rep must be a positive integer, got ${JSON.stringify(repText)}`,
    };
  }
  const role = RoleSchema.safeParse(roleText);
  if (!role.success) {
    return {
      ok: false,
      error: `path ${pathname}: role must be subject, simulator or judge, got ${JSON.stringify(roleText)}`,
    };
  }
  const rest = `/${parts.slice(4).join("/")}`;
  return {
    ok: true,
    run: {
      task,
      treatment,
      rep: Number(repText),
      role: role.data,
      ...(agent !== null ? { agent } : {}),
      ...(model !== null ? { model } : {}),
    },
    rest,
  };
}

export function runLabel(run: RunRef): string {
  return `task=${run.task ?? "-"} treatment=${run.treatment ?? "-"}${run.agent !== undefined ? ` agent=${run.agent}` : ""}${run.model !== undefined ? ` model=${run.model}` : ""} rep=${run.rep} role=${run.role}`;
}
