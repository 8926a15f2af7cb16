/**
 * `skillbench view DIR`: serve a results folder on 127.0.0.1 with the same pages as the
 * HTML report, run pages loaded lazily from JSON endpoints, and live refresh (Server-Sent
 * Events) while a run is in progress.
 *
 *   GET /                      summary page (overview data embedded, no run pages)
 *   GET /comparison            comparison page (404 without 2+ treatments)
 *   GET /api/summary[?view=]   overview data (HtmlData, mode "served")
 *   GET /api/runs/<id>         run page data (report, evidence without tool calls, timeline, workspace file list)
 *   GET /api/runs/<id>/files/<path>   one workspace file (text/plain; path escapes refused)
 *   GET /api/events            text/event-stream; `event: change` whenever the folder changes
 */
import { realpath, readFile, readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { chartJsSource } from '../report/html/chart-asset.js';
import { loadResults } from '../report/html/load.js';
import { renderHtmlPage } from '../report/html/page.js';
import { readRunPage } from '../report/html/read-run.js';
import { buildHtmlData, type HtmlData, type HtmlView } from '../report/html/summary-data.js';
import { experimentPaths, runPaths } from '../store/layout.js';
import { resolveInside } from '../util/fs.js';

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
const RUN_ID = /^[A-Za-z0-9._-]+$/;

/** A cheap fingerprint of the folder: metadata.json and every report.json's mtime and size. */
export async function folderSignature(dir: string): Promise<string> {
  const parts: string[] = [];
  const st = await stat(experimentPaths(dir).metadata).catch(() => null);
  parts.push(st ? `${st.mtimeMs}:${st.size}` : '-');
  const runs = await readdir(path.join(dir, 'runs')).catch(() => [] as string[]);
  runs.sort();
  for (const id of runs) {
    const r = await stat(runPaths(dir, id).report).catch(() => null);
    parts.push(r ? `${id}:${r.mtimeMs}:${r.size}` : `${id}:-`);
  }
  return parts.join('|');
}

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

export async function serveResults(dir: string, opts: ServeOptions = {}): Promise<ServedResults> {
  const root = path.resolve(dir);
  const pollMs = opts.pollMs ?? 1000;
  let cache: { sig: string; data: Record<HtmlView, HtmlData | null> } | null = null;
  const clients = new Set<http.ServerResponse>();
  let lastSig: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let port = 0;

  async function summary(view: HtmlView): Promise<HtmlData | null> {
    const sig = await folderSignature(root);
    if (!cache || cache.sig !== sig) {
      const loaded = await loadResults(root);
      const make = (v: HtmlView): HtmlData =>
        buildHtmlData({ view: v, mode: 'served', reports: loaded.reports, metadata: loaded.metadata, comparison: loaded.comparison, problems: loaded.problems });
      cache = { sig, data: { summary: make('summary'), comparison: loaded.comparison ? make('comparison') : null } };
    }
    return cache.data[view];
  }

  async function poll(): Promise<void> {
    const sig = await folderSignature(root).catch(() => null);
    if (sig === null || sig === lastSig) return;
    const first = lastSig === null;
    lastSig = sig;
    if (first) return;
    for (const c of clients) c.write(`event: change\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`);
  }

  function startPolling(): void {
    if (timer) return;
    timer = setInterval(() => void poll(), pollMs);
    timer.unref();
  }

  async function workspaceFile(id: string, rel: string, res: http.ServerResponse): Promise<void> {
    const ws = runPaths(root, id).workspace;
    const abs = resolveInside(ws, rel);
    if (abs === null) return sendJson(res, 400, { error: 'path outside the workspace' });
    // Symlinks must not lead out of the workspace either.
    const [realWs, realFile] = await Promise.all([realpath(ws).catch(() => null), realpath(abs).catch(() => null)]);
    if (realWs === null || realFile === null) return sendJson(res, 404, { error: 'no such file' });
    const relReal = path.relative(realWs, realFile);
    if (relReal === '' || relReal.startsWith('..') || path.isAbsolute(relReal)) return sendJson(res, 400, { error: 'path outside the workspace' });
    const st = await stat(realFile);
    if (!st.isFile()) return sendJson(res, 404, { error: 'not a file' });
    if (st.size > MAX_FILE_BYTES) return send(res, 200, 'text/plain; charset=utf-8', `(file of ${st.size} bytes: too large to show)`);
    const buf = await readFile(realFile);
    const binary = buf.subarray(0, 8000).includes(0);
    send(res, 200, 'text/plain; charset=utf-8', binary ? `(binary file, ${st.size} bytes)` : buf);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method not allowed' });
    // Only this machine, by name: a page elsewhere cannot reach the folder through DNS rebinding.
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return sendJson(res, 403, { error: 'unexpected Host header' });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const p = url.pathname;
    if (p === '/' || p === '/index.html' || p === '/summary.html' || p === '/comparison' || p === '/comparison_report.html') {
      const view: HtmlView = p.startsWith('/comparison') ? 'comparison' : 'summary';
      const data = await summary(view);
      if (!data) return send(res, 404, 'text/plain; charset=utf-8', 'No comparison: the results have fewer than two treatments.');
      return send(res, 200, 'text/html; charset=utf-8', renderHtmlPage(data, { chartJs: chartJsSource() }));
    }
    if (p === '/api/summary') {
      const data = await summary(url.searchParams.get('view') === 'comparison' ? 'comparison' : 'summary');
      return data ? sendJson(res, 200, data) : sendJson(res, 404, { error: 'no comparison' });
    }
    if (p === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 2000\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      lastSig ??= await folderSignature(root).catch(() => null);
      startPolling();
      return;
    }
    const m = /^\/api\/runs\/([^/]+)(?:\/files\/(.+))?$/.exec(p);
    if (m) {
      let id: string;
      let rel: string | undefined;
      try {
        id = decodeURIComponent(m[1] ?? '');
        rel = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
      } catch {
        return sendJson(res, 400, { error: 'bad URL encoding' });
      }
      if (!RUN_ID.test(id) || id === '.' || id === '..') return sendJson(res, 400, { error: 'bad run id' });
      if (rel !== undefined) return workspaceFile(id, rel, res);
      const page = await readRunPage(root, id);
      return page ? sendJson(res, 200, page) : sendJson(res, 404, { error: `no report for run ${id}` });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  port = addr !== null && typeof addr === 'object' ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      if (timer) clearInterval(timer);
      for (const c of clients) c.end();
      clients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
