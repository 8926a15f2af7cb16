/**
 * The inner relay programs (node's and Perl's), run directly on the host (no sandbox needed):
 * both must pipe connections to the unix socket byte for byte, start the command in its own cwd
 * and exit with its status.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INNER_RELAY_PERL,
  INNER_RELAY_SOURCE,
  PERL_RELAY_CHECK,
} from "../../../src/sandbox/network.js";
import { whichSync } from "../../../src/sandbox/exec.js";

let base: string;
let sock: string;
let echoSock: string;
const servers: net.Server[] = [];

/** Listen on `name` inside `dir` (a folder too long for a unix socket path, so by name from inside it). */
async function listenIn(dir: string, name: string, onConn: (c: net.Socket) => void): Promise<void> {
  const server = net.createServer(onConn);
  servers.push(server);
  const old = process.cwd();
  process.chdir(dir);
  try {
    await new Promise<void>((resolve) => server.listen(name, resolve));
  } finally {
    process.chdir(old);
  }
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "skillbench-inner-relay-"));
  // A folder name longer than a unix socket path allows: the relays connect by name from inside it.
  const dir = path.join(base, "d".repeat(120));
  await mkdir(dir);
  sock = path.join(dir, "model.sock");
  echoSock = path.join(dir, "echo.sock");
  // Like the model endpoint: reads a whole request (10-digit length, then the bytes), answers
  // with its sha256 and closes.
  await listenIn(dir, "model.sock", (c) => {
    let got = Buffer.alloc(0);
    c.on("error", () => undefined);
    c.on("data", (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const want = Number(got.subarray(0, 10).toString());
      if (got.length >= 10 && got.length - 10 >= want)
        c.end(createHash("sha256").update(got.subarray(10)).digest("hex"));
    });
  });
  await listenIn(dir, "echo.sock", (c) => {
    c.on("error", () => undefined);
    c.pipe(c);
  });
});

afterAll(async () => {
  for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
  await rm(base, { recursive: true, force: true });
});

/**
 * A client program (run by the relay): `n` parallel requests of ~2.5 MB each, each answer checked
 * against the request's sha256; prints its cwd and how many matched.
 */
const CLIENT = `
const net = require('net'); const crypto = require('crypto');
const port = Number(process.argv[1]); const n = Number(process.argv[2]);
let ok = 0;
Promise.all(Array.from({ length: n }, (_, i) => new Promise((resolve) => {
  const body = Buffer.from(crypto.createHash('sha256').update(String(i)).digest('hex').repeat(40000 + i));
  const c = net.connect(port, '127.0.0.1'); const got = [];
  c.on('data', (d) => got.push(d)); c.on('error', () => resolve());
  c.on('end', () => { if (Buffer.concat(got).toString() === crypto.createHash('sha256').update(body).digest('hex')) ok++; resolve(); });
  c.write(String(body.length).padStart(10, '0')); c.write(body);
}))).then(() => { process.stdout.write(process.cwd() + ' ' + ok); process.exit(ok === n ? 0 : 3); });
`;

/** For the Perl relay: ~2.5 MB sent and echoed back on each of `n` connections, the client half-closing. */
const ECHO_CLIENT = `
const net = require('net'); const crypto = require('crypto');
const port = Number(process.argv[1]); const n = Number(process.argv[2]);
let ok = 0;
Promise.all(Array.from({ length: n }, (_, i) => new Promise((resolve) => {
  const data = crypto.createHash('sha256').update(String(i)).digest('hex').repeat(40000 + i);
  const c = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }); const got = [];
  c.on('data', (d) => got.push(d)); c.on('error', () => resolve());
  c.on('end', () => { if (Buffer.concat(got).toString() === data) ok++; c.end(); resolve(); });
  c.end(data);
}))).then(() => { process.stdout.write(String(ok)); process.exit(ok === n ? 0 : 3); });
`;

/** A loopback port free a moment ago (the relay must be told its port). */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const a = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (a === null || typeof a === "string") throw new Error("no port");
  return a.port;
}

async function runRelay(
  interpreter: string,
  source: string,
  cmd: string[],
  cwd: string,
  target: string = sock,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const port = await freePort();
  return new Promise((resolve) => {
    const args = [
      "-e",
      source,
      target,
      String(port),
      ...cmd.map((a) => a.replace("PORT", String(port))),
    ];
    const child = spawn(interpreter, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const perl = whichSync("perl");
const programs: [string, string, string][] = [
  ["node", process.execPath, INNER_RELAY_SOURCE],
  ...(perl ? [["perl", perl, INNER_RELAY_PERL] as [string, string, string]] : []),
];

describe.each(programs)("the %s inner relay", (_name, interpreter, source) => {
  it("pipes parallel connections both ways and starts the command in its own cwd", async () => {
    const r = await runRelay(
      interpreter,
      source,
      [process.execPath, "-e", CLIENT, "PORT", "6"],
      base,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`${base} 6`);
    expect(r.code).toBe(0);
  });

  it("exits with the command's status, 128 + signal when it was killed", async () => {
    expect((await runRelay(interpreter, source, ["sh", "-c", "exit 7"], base)).code).toBe(7);
    expect((await runRelay(interpreter, source, ["sh", "-c", "kill -TERM $$"], base)).code).toBe(
      128 + 15,
    );
  });

  it("exits 127 and says why when the command cannot start", async () => {
    const r = await runRelay(interpreter, source, [path.join(base, "no-such-agent")], base);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain(
      `skillbench relay: cannot start ${path.join(base, "no-such-agent")}`,
    );
  });
});

describe.skipIf(!perl)("the perl inner relay", () => {
  it("keeps half-closes: a large echo comes back whole after the client stopped sending", async () => {
    const r = await runRelay(
      perl ?? "perl",
      INNER_RELAY_PERL,
      [process.execPath, "-e", ECHO_CLIENT, "PORT", "4"],
      base,
      echoSock,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("4");
    expect(r.code).toBe(0);
  });
});

describe.skipIf(!perl)("the perl relay's numbers", () => {
  it("agree with this host's Socket, Fcntl and Errno; the check fails on a number that does not", () => {
    const check = (program: string) => spawnSync(perl ?? "perl", ["-e", program]).status;
    expect(check(PERL_RELAY_CHECK)).toBe(0);
    expect(PERL_RELAY_CHECK).toContain("Fcntl::O_NONBLOCK() == 2048");
    expect(
      check(PERL_RELAY_CHECK.replace("Fcntl::O_NONBLOCK() == 2048", "Fcntl::O_NONBLOCK() == 2049")),
    ).toBe(1);
    expect(INNER_RELAY_PERL).not.toMatch(/\buse (Socket|Fcntl|Errno)\b|\$!\{/);
  });
});
