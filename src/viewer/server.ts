/**
 * `skillbench view DIR`: serve a results folder on 127.0.0.1 with the same pages as the
 * HTML report, run pages loaded lazily from JSON endpoints, and live refresh (Server-Sent
 * Events) while a run is in progress.
 *
 *   GET /                      summary page (overview data embedded, no run pages)
 *   GET /comparison            comparison page (404 without 2+ treatments)
 *   GET /api/summary[?view=][&wait=0]   overview data (HtmlData, mode "served"); complete
 *                              (comparison, bootstrap intervals) unless wait=0
 *
 * The summary is built as soon as the server starts. While the comparison (the bootstrap)
 * is still being computed, GET / serves the page with the quick data (`pending: true`),
 * and the page fills in the rest from /api/summary.
 *   GET /api/runs/<id>         run page data (report, evidence without tool calls, timeline, workspace file list)
 *   GET /api/runs/<id>/files/<path>   one workspace file (text/plain; path escapes refused)
 *   GET /api/pairwise          pairwise.json (the pairwise judge's pairs; 404 without one)
 *   GET /api/events            text/event-stream; `event: change` whenever the folder changes
 */
import { realpath, readFile, stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { chartJsSource } from "../report/html/chart-asset.js";
import type { Comparison } from "../report/comparison/types.js";
import { CONTROL } from "../plan/roles.js";
import { treatmentOrder } from "../plan/group.js";
import {
  comparisonOf,
  hasTwoTreatments,
  loadInputs,
  type LoadedInputs,
} from "../report/html/load.js";
import type { ReportCache } from "../store/read.js";
import { toWire } from "../report/html/columns.js";
import { renderHtmlPage } from "../report/html/page.js";
import { readRunPage } from "../report/html/read-run.js";
import { buildHtmlData } from "../report/html/summary-data.js";
import type { HtmlData, HtmlView } from "../report/html/wire.js";
import { runPaths } from "../store/layout.js";
import { readPairwise } from "../store/pairwise.js";
import { resolveInside } from "../util/fs.js";

export interface ServeOptions {
  /** 0 or absent: any free port */
  port?: number;
  /** how often the folder is checked for changes while someone listens (default 1000 ms) */
  pollMs?: number;
}

export interface ServedResults {
  url: string;
  close(): Promise<void>;
}

/** Largest workspace file served (bytes). */
const MAX_FILE_BYTES = 5_000_000;
/**
 * A run id the viewer serves: the characters run ids are made of (names, `-r<rep>`, `@<agent>` of a
 * treatment on several agents, `~<model>` of one on several models; src/plan/matrix.ts), never a
 * path separator, and never `.` or `..` alone.
 */
export function servableRunId(id: string): boolean {
  return /^[A-Za-z0-9._@~-]+$/.test(id) && id !== "." && id !== "..";
}

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** The complete overview data of the folder as it was at `sig`. */
interface Built {
  sig: string;
  data: Record<HtmlView, HtmlData | null>;
}

export async function serveResults(dir: string, opts: ServeOptions = {}): Promise<ServedResults> {
  const root = path.resolve(dir);
  const pollMs = opts.pollMs ?? 1000;
  // Parsed reports by run id: a refresh re-reads only the reports that changed.
  const reportCache: ReportCache = new Map();
  /** the complete overview data of the folder as it was at `sig` */
  let full: Built | null = null;
  /** the comparison being computed, for the folder at `sig` */
  let building: { sig: string; done: Promise<Built> } | null = null;
  let loading: Promise<LoadedInputs> | null = null;
  const clients = new Set<http.ServerResponse>();
  let lastSig: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let port = 0;
  let closed = false;

  /** The folder's current inputs (reports parsed once per change); concurrent callers share one read. */
  function load(): Promise<LoadedInputs> {
    loading ??= loadInputs(root, { cache: reportCache }).finally(() => {
      loading = null;
    });
    return loading;
  }

  function make(
    inputs: LoadedInputs,
    view: HtmlView,
    comparison: Comparison | null,
    pending: boolean,
  ): HtmlData {
    return buildHtmlData({
      view,
      mode: "served",
      reports: inputs.reports,
      metadata: inputs.metadata,
      comparison,
      problems: inputs.problems,
      pending,
      treatments: treatmentOrder(inputs.reports, inputs.metadata?.treatments ?? [CONTROL]),
      ...(inputs.choices
        ? { ks: inputs.choices.pass_k.ks, seed: inputs.choices.settings.seed }
        : {}),
    });
  }

  /** Start (or join) computing the complete data for these inputs: the bootstrap runs after the current I/O turn, so a quick page already on its way goes out first. */
  function buildFull(inputs: LoadedInputs): Promise<Built> {
    if (full?.sig === inputs.signature) return Promise.resolve(full);
    if (building?.sig === inputs.signature) return building.done;
    const sig = inputs.signature;
    const done = new Promise<Built>((resolve, reject) => {
      setImmediate(() => {
        try {
          const comparison = comparisonOf(inputs);
          const built: Built = {
            sig,
            data: {
              summary: make(inputs, "summary", comparison, false),
              comparison: comparison ? make(inputs, "comparison", comparison, false) : null,
            },
          };
          // a newer build may have finished first: keep the newest folder state
          if (building?.sig === sig || full === null) full = built;
          resolve(built);
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        } finally {
          if (building?.sig === sig) building = null;
        }
      });
    });
    building = { sig, done };
    return done;
  }

  /**
   * Overview data of the folder as it is now. `wait`: the complete data (comparison and
   * bootstrap intervals). Otherwise, while those are still being computed, the quick data
   * (runs, outcomes, pass@k point estimates; `pending: true`) so that the page can draw.
   */
  async function summary(view: HtmlView, wait: boolean): Promise<HtmlData | null> {
    const inputs = await load();
    if (full?.sig === inputs.signature) return full.data[view];
    const done = buildFull(inputs);
    // Not awaited on the quick path: a failure there must not become an unhandled rejection.
    done.catch(() => undefined);
    if (wait) return (await done).data[view];
    if (view === "comparison" && !hasTwoTreatments(inputs)) return null;
    return make(inputs, view, null, true);
  }

  async function poll(): Promise<void> {
    const inputs = await load().catch(() => null);
    if (inputs === null || closed) return;
    const sig = inputs.signature;
    if (sig === lastSig) return;
    const first = lastSig === null;
    lastSig = sig;
    if (first) return;
    // start on the new numbers now: the pages ask for them as soon as they hear of the change
    buildFull(inputs).catch(() => undefined);
    for (const c of clients)
      c.write(`event: change\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`);
  }

  function startPolling(): void {
    if (timer) return;
    timer = setInterval(() => void poll(), pollMs);
    timer.unref();
  }

  async function workspaceFile(id: string, rel: string, res: http.ServerResponse): Promise<void> {
    const ws = runPaths(root, id).workspace;
    const abs = resolveInside(ws, rel);
    if (abs === null) return sendJson(res, 400, { error: "path outside the workspace" });
    // Symlinks must not lead out of the workspace either.
    const [realWs, realFile] = await Promise.all([
      realpath(ws).catch(() => null),
      realpath(abs).catch(() => null),
    ]);
    if (realWs === null || realFile === null) return sendJson(res, 404, { error: "no such file" });
    const relReal = path.relative(realWs, realFile);
    if (relReal === "" || relReal.startsWith("..") || path.isAbsolute(relReal))
      return sendJson(res, 400, { error: "path outside the workspace" });
    const st = await stat(realFile);
    if (!st.isFile()) return sendJson(res, 404, { error: "not a file" });
    if (st.size > MAX_FILE_BYTES)
      return send(
        res,
        200,
        "text/plain; charset=utf-8",
        `(file of ${st.size} bytes: too large to show)`,
      );
    const buf = await readFile(realFile);
    const binary = buf.subarray(0, 8000).includes(0);
    send(res, 200, "text/plain; charset=utf-8", binary ? `(binary file, ${st.size} bytes)` : buf);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD")
      return sendJson(res, 405, { error: "method not allowed" });
    // Only this machine, by name: a page elsewhere cannot reach the folder through DNS rebinding.
    const host = req.headers.host ?? "";
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
      return sendJson(res, 403, { error: "unexpected Host header" });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const p = url.pathname;
    if (
      p === "/" ||
      p === "/index.html" ||
      p === "/summary.html" ||
      p === "/comparison" ||
      p === "/comparison_report.html"
    ) {
      const view: HtmlView = p.startsWith("/comparison") ? "comparison" : "summary";
      const data = await summary(view, false);
      if (!data)
        return send(
          res,
          404,
          "text/plain; charset=utf-8",
          "No comparison: the results have fewer than two treatments.",
        );
      return send(
        res,
        200,
        "text/html; charset=utf-8",
        renderHtmlPage(data, { chartJs: chartJsSource() }),
      );
    }
    if (p === "/api/summary") {
      const data = await summary(
        url.searchParams.get("view") === "comparison" ? "comparison" : "summary",
        url.searchParams.get("wait") !== "0",
      );
      return data
        ? sendJson(res, 200, toWire(data))
        : sendJson(res, 404, { error: "no comparison" });
    }
    if (p === "/api/pairwise") {
      // The pairwise judge's pairs, for the comparison's "Pairwise judge" section (client/pairs.ts).
      const pairs = await readPairwise(root);
      return pairs ? sendJson(res, 200, pairs) : sendJson(res, 404, { error: "no pairwise.json" });
    }
    if (p === "/api/events") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write("retry: 2000\n\n");
      clients.add(res);
      req.on("close", () => clients.delete(res));
      lastSig ??= await load()
        .then((i) => i.signature)
        .catch(() => null);
      startPolling();
      return;
    }
    const m = /^\/api\/runs\/([^/]+)(?:\/files\/(.+))?$/.exec(p);
    if (m) {
      let id: string;
      let rel: string | undefined;
      try {
        id = decodeURIComponent(m[1] ?? "");
        rel = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
      } catch {
        return sendJson(res, 400, { error: "bad URL encoding" });
      }
      if (!servableRunId(id)) return sendJson(res, 400, { error: "bad run id" });
      if (rel !== undefined) return workspaceFile(id, rel, res);
      const page = await readRunPage(root, id);
      return page
        ? sendJson(res, 200, page)
        : sendJson(res, 404, { error: `no report for run ${id}` });
    }
    return sendJson(res, 404, { error: "not found" });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
      else res.end();
    });
  });
  // Not a results folder (or unreadable): an input error before anything listens.
  const first = await load();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  port = addr !== null && typeof addr === "object" ? addr.port : 0;
  // Build the summary now, not on the first request: by the time a browser asks, it is (nearly) ready.
  void Promise.resolve(first)
    .then((inputs) => (closed ? null : buildFull(inputs)))
    .catch(() => undefined);
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      closed = true;
      if (timer) clearInterval(timer);
      for (const c of clients) c.end();
      clients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
