/**
 * A real redis-server for the queue tests: on 127.0.0.1, a free port, its own temporary
 * folder, no persistence; stopped by the test. The port is found by binding port 0 and
 * releasing it; if another process takes it in between, the start is retried.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestRedis {
  port: number;
  /** redis://127.0.0.1:PORT/DB */
  url(db?: number): string;
  stop(): Promise<void>;
  /** Kill the server (SIGKILL: an outage), keeping its port for `restart`. */
  kill(): Promise<void>;
  /** Start it again on the same port, empty (no persistence), as a restarted server is. */
  restart(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function startOnce(
  port: number,
  dir: string,
  password: string | null,
): Promise<ChildProcess | null> {
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
    ...(password ? ["--requirepass", password] : []),
  ];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("error", reject);
    child.stdout?.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (/Ready to accept connections/.test(out)) resolve(child);
    });
    child.on("exit", () => resolve(null));
  });
}

/** A port nothing listens on now (bound and released). */
export const unusedPort = freePort;

export async function startRedis(
  opts: { password?: string; port?: number } = {},
): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillbench-redis-"));
  for (let i = 0; i < 5; i++) {
    const port = opts.port ?? (await freePort());
    let child = await startOnce(port, dir, opts.password ?? null);
    if (!child) continue;
    const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : "";
    const end = async (signal: NodeJS.Signals): Promise<void> => {
      const c = child;
      if (c && c.exitCode === null && c.signalCode === null) {
        const gone = new Promise((r) => c.once("exit", r));
        c.kill(signal);
        await gone;
      }
    };
    return {
      port,
      url: (db = 0) => `redis://${auth}127.0.0.1:${port}/${db}`,
      stop: async () => {
        await end("SIGTERM");
        await rm(dir, { recursive: true, force: true });
      },
      kill: () => end("SIGKILL"),
      restart: async () => {
        child = await startOnce(port, dir, opts.password ?? null);
        if (!child) throw new Error(`redis-server did not start again on port ${port}`);
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error("redis-server did not start (is it installed? apt-get install redis-server)");
}
