/** The host side of the model relay, with real sockets (no sandbox needed). */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relayServer } from "../../../src/sandbox/network.js";
import { startHostRelay } from "../../../src/sandbox/relay.js";

let base: string;
let target: Server;
let port = 0;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "skillbench-relay-"));
  target = createServer((req, res) => res.end(`got ${req.url ?? ""}`));
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  const a: AddressInfo | string | null = target.address();
  if (a === null || typeof a === "string") throw new Error("no port");
  port = a.port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await rm(base, { recursive: true, force: true });
});

/** One HTTP/1.0 GET through a unix socket; the whole response. */
function getVia(sock: string, urlPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect({ path: sock });
    const chunks: Buffer[] = [];
    c.on("connect", () => c.write(`GET ${urlPath} HTTP/1.0\r\nHost: x\r\n\r\n`));
    c.on("data", (d: Buffer) => chunks.push(d));
    c.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    c.on("error", reject);
  });
}

describe("host relay", () => {
  it.each([
    ["a short path", "short"],
    ["a path longer than a unix socket allows", "x".repeat(120)],
  ])(
    "forwards each connection to the endpoint (%s) and removes its socket on close",
    async (_what, dir) => {
      const d = path.join(base, dir);
      await mkdir(d, { recursive: true });
      const sock = path.join(d, ".skillbench-model.sock");
      const relay = await startHostRelay(sock, { host: "127.0.0.1", port });
      expect(existsSync(sock)).toBe(true);
      // A client cannot connect to a too-long path either: it goes through a short link of its own.
      const link = path.join(base, `l-${dir.length}`);
      await symlink(d, link);
      const via = path.join(link, ".skillbench-model.sock");
      expect(await getVia(via, "/runs/a")).toContain("got /runs/a");
      expect(await getVia(via, "/runs/b")).toContain("got /runs/b");
      expect(relay.connections()).toBe(2);
      await relay.close();
      await relay.close();
      expect(existsSync(sock)).toBe(false);
    },
  );
});

describe("host relay to a server in this process", () => {
  it("hands each connection to the server (no TCP connection to its port), and close() cuts the open ones", async () => {
    const d = path.join(base, "serve");
    await mkdir(d, { recursive: true });
    const sock = path.join(d, ".skillbench-model.sock");
    // The port given is closed: only the handed-over connections can answer.
    const served = createServer((req, res) => res.end(`served ${req.url ?? ""}`));
    let handed = 0;
    const relay = await startHostRelay(sock, { host: "127.0.0.1", port: 1 }, (s) => {
      handed++;
      served.emit("connection", s);
    });
    expect(await getVia(sock, "/runs/a")).toContain("served /runs/a");
    expect(await getVia(sock, "/runs/b")).toContain("served /runs/b");
    expect(handed).toBe(2);
    expect(relay.connections()).toBe(2);
    // A connection still open when the relay closes is cut.
    const open = net.connect({ path: sock });
    const ended = new Promise<void>((resolve) => open.on("close", () => resolve()));
    await new Promise<void>((resolve) => open.on("connect", () => resolve()));
    await relay.close();
    await ended;
    expect(existsSync(sock)).toBe(false);
  });
});

describe("which server the relay hands its connections to", () => {
  const target = {
    host: "127.0.0.1",
    port: 4100,
    origin: "http://127.0.0.1:4100",
    innerPort: 4100,
  };
  const accept = (): void => undefined;
  it.each([
    ["no server in this process", undefined, false],
    ["a server at the endpoint's origin", { url: "http://127.0.0.1:4100", accept }, true],
    ["a server elsewhere", { url: "http://127.0.0.1:4101", accept }, false],
  ])("%s", (_what, local, hands) => {
    expect(relayServer(local, target) !== undefined).toBe(hands);
  });
});
