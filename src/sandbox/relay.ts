/**
 * The host side of the model-endpoint relay: a unix socket in the run dir -> the endpoint's
 * host:port; and `local`'s loopback tap, a TCP port on 127.0.0.1 -> the same. Both can time the
 * requests they pass (request-log.ts).
 */
import { chmodSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { relayStem } from "../util/temp-names.js";
import type { RequestLog } from "./request-log.js";

/**
 * A meter for the bytes the endpoint sends back on one connection (the budgets' metering,
 * src/cost/meter.ts `createHttpMeter`): the bytes are passed on unchanged either way.
 */
export type ConnectionMeter = () => { push(chunk: Uint8Array): void; end(): void };

export interface HostRelay {
  /** The socket's real path (in the run dir). */
  socketPath: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Stop listening, cut every open connection, remove the socket. Idempotent, never throws. */
  close(): Promise<void>;
}

/**
 * Pipe one accepted connection to the endpoint both ways; with `log`, each direction's bytes are
 * timed (request-log.ts). Both sides go when either ends.
 */
function pipeToTarget(
  c: net.Socket,
  target: { host: string; port: number },
  open: Set<net.Socket>,
  log: RequestLog | undefined,
  conn: number,
  meter?: ConnectionMeter,
): void {
  // No Nagle delay on the TCP leg: a request's head and body, written apart, go at once.
  const u = net.connect({ port: target.port, host: target.host, noDelay: true });
  open.add(c);
  open.add(u);
  let ended = false;
  const metered = meter?.();
  const end = (): void => {
    if (!ended) {
      log?.closed(conn);
      metered?.end();
    }
    ended = true;
    c.destroy();
    u.destroy();
    open.delete(c);
    open.delete(u);
  };
  for (const s of [c, u]) {
    s.on("error", end);
    s.on("close", end);
  }
  if (log) {
    c.on("data", () => log.fromAgent(conn));
    u.on("data", () => log.fromEndpoint(conn));
  }
  if (metered) u.on("data", (b: Buffer) => metered.push(b));
  c.pipe(u);
  u.pipe(c);
}

export interface LoopbackTap {
  /** The port on 127.0.0.1 the agent is pointed at. */
  port: number;
  close(): Promise<void>;
}

/**
 * `--sandbox local`'s tap: a loopback listener on 127.0.0.1 (a port of its own) piping every
 * connection to the endpoint, each request timed by `log`, as the sandboxes' relay does.
 */
export async function startLoopbackTap(
  target: { host: string; port: number },
  log: RequestLog,
  meter?: ConnectionMeter,
): Promise<LoopbackTap> {
  const open = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer({ noDelay: true }, (c) => {
    pipeToTarget(c, target, open, log, ++count, meter);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", () => undefined);
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  let closing: Promise<void> | null = null;
  return {
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        open.clear();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

/** sun_path holds 108 bytes with its NUL; stay clear of it. */
const MAX_SOCKET_PATH = 100;

function unlinkQuiet(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    /* absent */
  }
}

/**
 * Listen on `socketPath` and pipe every connection to `target`. A path too long for a unix socket
 * is reached through a short symlink to its folder in the host's tmp dir (bind follows it; the
 * socket file is created in the real folder). Only this one host:port is ever connected to.
 * With `serve` (the endpoint's server runs in this process: SandboxOptions.localModelServer),
 * each connection is handed to it instead, with no TCP connection and no piping.
 */
export async function startHostRelay(
  socketPath: string,
  target: { host: string; port: number },
  serve?: (socket: net.Socket) => void,
  log?: RequestLog,
  meter?: ConnectionMeter,
): Promise<HostRelay> {
  unlinkQuiet(socketPath);
  let shortDir: string | null = null;
  let listenPath = socketPath;
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    // Named with its owner, so that a skillbench killed with -9 leaves nothing unswept.
    shortDir = mkdtempSync(path.join(os.tmpdir(), relayStem(process.pid)));
    symlinkSync(path.dirname(socketPath), path.join(shortDir, "d"));
    listenPath = path.join(shortDir, "d", path.basename(socketPath));
  }
  const open = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((c) => {
    count++;
    if (serve) {
      open.add(c);
      c.on("close", () => open.delete(c));
      serve(c);
      return;
    }
    pipeToTarget(c, target, open, log, count, meter);
  });
  const cleanupShort = (): void => {
    if (shortDir) rmSync(shortDir, { recursive: true, force: true });
    shortDir = null;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(listenPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    cleanupShort();
    throw e;
  }
  server.on("error", () => undefined);
  try {
    chmodSync(socketPath, 0o600);
  } catch (e) {
    server.close();
    cleanupShort();
    throw e;
  }
  let closing: Promise<void> | null = null;
  return {
    socketPath,
    connections: () => count,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        open.clear();
        server.close(() => resolve());
      }).then(() => {
        unlinkQuiet(socketPath);
        cleanupShort();
      });
      return closing;
    },
  };
}
