/**
 * A loopback TCP proxy in front of a test redis-server that can hold a client's replies.
 *
 * Some queue faults are "something changed in Redis between two steps of a worker". Doing
 * that from a keyspace notification races the worker: the coordinator may read before the
 * test's write lands. Holding the replies on the connection that sent a given key makes it
 * an ordering instead: the worker's command has reached Redis, its reply (and so the
 * worker's next step) waits until the test has changed what it wanted and releases it.
 */
import net from "node:net";

export interface HoldingProxy {
  port: number;
  /** The same Redis URL with the proxy's port in place of the server's. */
  url(target: string): string;
  /**
   * Arm a hold: the next connection to send bytes containing `marker` has them forwarded and
   * every reply after that kept back. Resolves, once that happened, with the release.
   */
  holdRepliesAfter(marker: string): Promise<() => void>;
  close(): Promise<void>;
}

interface Armed {
  marker: Buffer;
  fire: (release: () => void) => void;
}

export async function startHoldingProxy(targetPort: number): Promise<HoldingProxy> {
  let armed: Armed | null = null;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    let held: Buffer[] | null = null;
    // The tail of what the client sent, so a marker split across two chunks is still seen.
    let tail = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (!armed || held) return;
      const seen = Buffer.concat([tail, chunk]);
      tail = seen.subarray(Math.max(0, seen.length - armed.marker.length + 1));
      if (!seen.includes(armed.marker)) return;
      const { fire } = armed;
      armed = null;
      held = [];
      fire(() => {
        for (const b of held ?? []) client.write(b);
        held = null;
      });
    });
    upstream.on("data", (chunk: Buffer) => {
      if (held) held.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    port,
    url: (target) => target.replace(/:(\d+)\/(\d+)$/, `:${port}/$2`),
    holdRepliesAfter: (marker) =>
      new Promise((fire) => {
        armed = { marker: Buffer.from(marker), fire };
      }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
