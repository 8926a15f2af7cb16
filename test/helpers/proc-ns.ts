/**
 * Which namespaces the processes carrying some environment line run in, read from /proc while
 * they run (Linux only): how an e2e test shows that a helper agent (the judge, the simulated
 * user) runs inside a sandbox, a property a process on the host never has.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { expect } from "vitest";

export interface ProcNs {
  pid: number;
  cmd: string;
  /** Whether its PID and network namespaces are this process's own. */
  hostPidNs: boolean;
  hostNetNs: boolean;
}

/** Every process of this user whose environment has a line matching `line`. */
export function processesWithEnv(line: RegExp): ProcNs[] {
  const ownPid = readlinkSync("/proc/self/ns/pid");
  const ownNet = readlinkSync("/proc/self/ns/net");
  const out: ProcNs[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (!env.some((l) => line.test(l))) continue;
      out.push({
        pid: Number(name),
        cmd: readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").slice(0, 2).join(" "),
        hostPidNs: readlinkSync(`/proc/${name}/ns/pid`) === ownPid,
        hostNetNs: readlinkSync(`/proc/${name}/ns/net`) === ownNet,
      });
    } catch {
      /* gone, or not ours */
    }
  }
  return out;
}

/**
 * A pass-through HTTP proxy to `target` that calls `onRequest` when a request has arrived and
 * before it is forwarded: the caller (a helper agent waiting for its answer) is alive then.
 */
export async function startSnoopingProxy(
  target: string,
  onRequest: (path: string) => void,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const t = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      onRequest(req.url ?? "");
      const up = httpRequest(
        { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers },
        (ur) => {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
        },
      );
      up.on("error", () => res.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.address();
  const port = addr !== null && typeof addr === "object" ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Each look at the processes carrying a helper's environment shows it sandboxed: the agent in a
 * PID and a network namespace of its own (bubblewrap's, model-only), and on the host nothing but
 * bubblewrap itself.
 */
export function expectOnlyInsideBwrap(seen: ProcNs[][]): void {
  expect(seen.length).toBeGreaterThanOrEqual(1);
  for (const procs of seen) {
    expect(
      procs.some((p) => !p.hostPidNs && !p.hostNetNs),
      JSON.stringify(procs),
    ).toBe(true);
    expect(
      procs.filter((p) => p.hostPidNs).every((p) => /bwrap/.test(p.cmd)),
      JSON.stringify(procs),
    ).toBe(true);
  }
}
