/** The host side of the model-endpoint relay: a unix socket in the run dir -> the endpoint's host:port. */
import { chmodSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { relayStem } from "../util/temp-names.js";

export interface HostRelay {
  /** The socket's real path (in the run dir). */
  socketPath: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Stop listening, cut every open connection, remove the socket. Idempotent, never throws. */
  close(): Promise<void>;
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
    // No Nagle delay on the TCP leg: a request's head and body, written apart, go at once.
    const u = net.connect({ port: target.port, host: target.host, noDelay: true });
    open.add(c);
    open.add(u);
    const end = (): void => {
      c.destroy();
      u.destroy();
      open.delete(c);
      open.delete(u);
    };
    for (const s of [c, u]) {
      s.on("error", end);
      s.on("close", end);
    }
    c.pipe(u);
    u.pipe(c);
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
