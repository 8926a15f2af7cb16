/**
 * The model tap: a plain-http listener on 127.0.0.1 that forwards every request to the model
 * endpoint (http or https, TLS verified by node's own checks) and pipes the answer back
 * unchanged. It exists because a budget is held by reading the replies' usage as they pass
 * (cost/meter.ts), and an agent speaking TLS to a live `https://` endpoint cannot be read by the
 * run's relay or `local`'s loopback tap: pointed at this tap instead, the agent speaks plain http,
 * which they meter, and the tap speaks TLS to the endpoint (docs/budgets.md).
 *
 * Queue workers use it too (queue/model-tap.ts adds the experiment's shared rate limit).
 * Nothing here logs or stores a request: the agent's credential passes in its headers only.
 */
import http from "node:http";
import https from "node:https";
import { parseRunPath, type RunRef } from "./run-path.js";
import type { AgentDriver } from "../agents/types.js";

/** Each model API's base-URL variable and the agent's default endpoint when it is not set. */
export const LIVE_BASE_URLS = {
  anthropic: ["ANTHROPIC_BASE_URL", "https://api.anthropic.com"],
  "openai-responses": ["OPENAI_BASE_URL", "https://api.openai.com/v1"],
  gemini: ["GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com"],
} as const satisfies Record<AgentDriver["api"], readonly [string, string]>;

/**
 * What the tap reports of each run's Messages requests, as the scripted model server does
 * (runner/model-api.ts's tracker is one; declared here so the tap needs nothing of runner/).
 */
export interface TapTracker {
  onRequest(run: RunRef): void;
  onExchange(entry: Record<string, unknown>): void;
}

export interface ModelTap {
  /** The tap's base URL (the upstream's path prefix is added to every request). */
  url: string;
  close(): Promise<void>;
}

/**
 * Start a tap in front of `upstream`. `gate` is awaited before a request for a reply goes on (a
 * rate limit); when it rejects, the request is answered 503. `tracker` counts what became of each
 * run's requests (the run's `model_api` record), as the scripted model server does.
 */
export async function startTap(a: {
  upstream: string;
  gate?: ((signal: AbortSignal) => Promise<void>) | undefined;
  tracker?: TapTracker | undefined;
}): Promise<ModelTap> {
  const up = new URL(a.upstream);
  const base = up.pathname.replace(/\/$/, "");
  const client = up.protocol === "https:" ? https : http;
  const closing = new AbortController();
  const server = http.createServer((req, res) => {
    const reqPath = req.url ?? "/";
    const pathname = new URL(reqPath, "http://127.0.0.1").pathname;
    const parsed = parseRunPath(pathname);
    const run = parsed.ok ? parsed.run : null;
    const messages = req.method === "POST" && /\/v1\/messages$/.test(pathname);
    if (run && messages) a.tracker?.onRequest(run);
    let settled = false;
    const settle = (status: number | null, cut: boolean): void => {
      if (settled) return;
      settled = true;
      if (run && messages)
        a.tracker?.onExchange({
          run,
          method: "POST",
          path: pathname,
          status,
          fault: cut ? { kind: "cut" } : null,
        });
    };
    const forward = (): void => {
      const outReq = client.request(
        {
          protocol: up.protocol,
          hostname: up.hostname,
          port: up.port || undefined,
          method: req.method,
          path: `${base}${reqPath}`,
          headers: { ...req.headers, host: up.host },
        },
        (outRes) => {
          const status = outRes.statusCode ?? 502;
          res.writeHead(status, outRes.headers);
          outRes.pipe(res);
          outRes.on("end", () => settle(status, false));
          // The upstream dropped the connection mid-answer: a cut stream.
          outRes.on("aborted", () => settle(status, true));
          outRes.on("error", () => settle(status, true));
          outRes.on("close", () => settle(status, !outRes.complete));
        },
      );
      outReq.on("error", (e) => {
        if (!res.headersSent) {
          // The error names the endpoint and what failed (a refused connection, a certificate
          // that does not verify), never a header: the credential is not in it.
          res.writeHead(502, { "content-type": "application/json" });
          res.end(
            JSON.stringify({ type: "error", error: { type: "api_error", message: String(e) } }),
          );
          settle(null, false);
        } else {
          res.destroy();
          settle(null, true);
        }
      });
      // The agent went away (or was killed) before an answer came: no answer.
      res.on("close", () => {
        outReq.destroy();
        settle(null, false);
      });
      req.pipe(outReq);
    };
    const gate = a.gate;
    const gated = gate && req.method === "POST" && !/count_tokens/.test(reqPath);
    if (!gated) return forward();
    req.pause();
    gate(closing.signal).then(
      () => {
        req.resume();
        forward();
      },
      (e: unknown) => {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            type: "error",
            error: { type: "overloaded_error", message: String(e) },
          }),
        );
        settle(503, false);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The live endpoints of an experiment's agents put behind taps, and the environment that names them. */
export interface BudgetTaps {
  /** The host environment with each tapped base-URL variable pointing at its tap. */
  env: Record<string, string | undefined>;
  /** One line per tapped endpoint, for the start-up notes. */
  notes: string[];
  /**
   * The endpoint's origin as the run fingerprint records it (plan/fingerprint.ts): a tap's
   * origin is given back as the endpoint behind it (`default` when its variable was not set), so
   * that tapping changes no run key.
   */
  fingerprintOrigin(at: string): string;
  close(): Promise<void>;
}

/**
 * Under a budget, put every live `https://` endpoint the agents reach (each driver's API, and the
 * Anthropic one the simulated user speaks to) behind a tap, so the runs' relays and `local`'s
 * loopback tap meter them. Returns null when nothing needs tapping: no budget, a scripted model
 * (metered where it answers), or only plain-http endpoints (metered already).
 */
export async function tapLiveEndpoints(a: {
  budget: boolean;
  /** A model script is in use: no live endpoint. */
  scripted: boolean;
  apis: readonly AgentDriver["api"][];
  hostEnv: Record<string, string | undefined>;
}): Promise<BudgetTaps | null> {
  if (!a.budget || a.scripted) return null;
  const env = { ...a.hostEnv };
  const taps: ModelTap[] = [];
  const notes: string[] = [];
  const origins = new Map<string, string>();
  try {
    const vars: (readonly [string, string | null])[] = [
      ...new Set<AgentDriver["api"]>(["anthropic", ...a.apis]),
    ].map((api) => LIVE_BASE_URLS[api]);
    // The simulated user's own endpoint, when it has one (runner/model-endpoint.ts).
    vars.push(["SKILLBENCH_SIMULATOR_BASE_URL", null]);
    for (const [name, fallback] of vars) {
      const given = a.hostEnv[name];
      const upstream = given ?? fallback;
      if (upstream === null) continue;
      let url: URL;
      try {
        url = new URL(upstream);
      } catch {
        continue; // the agent reports an endpoint it cannot parse, as without a budget
      }
      if (url.protocol !== "https:") continue;
      const tap = await startTap({ upstream });
      taps.push(tap);
      env[name] = tap.url;
      origins.set(new URL(tap.url).origin, given === undefined ? "default" : url.origin);
      notes.push(
        `budget: ${given === undefined ? `the agent's default endpoint ${upstream}` : `${name} ${url.origin}`} is metered through skillbench's tap ${tap.url} (the agent speaks plain http to it on 127.0.0.1; the tap speaks TLS to the endpoint, its certificate verified)`,
      );
    }
  } catch (e) {
    await Promise.all(taps.map((t) => t.close()));
    throw e;
  }
  if (taps.length === 0) return null;
  return {
    env,
    notes,
    fingerprintOrigin: (at) => origins.get(at) ?? at,
    close: async () => {
      await Promise.all(taps.map((t) => t.close()));
    },
  };
}
