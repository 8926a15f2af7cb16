/**
 * `--sandbox local`'s loopback tap (src/sandbox/local.ts): a plain-http model endpoint is reached
 * through a port of its own on 127.0.0.1 that pipes to the endpoint and times each request; the
 * in-process scripted model, https endpoints and `network: host` are not tapped.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalSandbox } from "../../../src/sandbox/local.js";
import type { Sandbox, SandboxOptions } from "../../../src/sandbox/types.js";

const dirs = { root: "/r", workspace: "/r/w", home: "/r/h", config: "/r/c", tmp: "/r/t" };
const opts = (over: Partial<SandboxOptions>): SandboxOptions => ({
  runDirs: dirs,
  task: { environmentDir: null },
  agentBin: "/bin/true",
  resultsDir: "/results",
  ...over,
});
const spec = (url: string) => ({
  cmd: "agent",
  args: [],
  cwd: "/r/w",
  env: { ANTHROPIC_BASE_URL: `${url}/runs/x`, OTHER: "y" },
});

let open: Sandbox[] = [];
let servers: net.Server[] = [];
afterEach(async () => {
  for (const s of open) await s.stop();
  for (const s of servers) s.close();
  open = [];
  servers = [];
});

/** An endpoint that answers every chunk with "pong". */
async function pongServer(): Promise<number> {
  const s = net.createServer((c) => c.on("data", () => c.write("pong")));
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return (s.address() as net.AddressInfo).port;
}

describe("local's loopback tap", () => {
  it("points the endpoint variables at the tap, pipes to the endpoint and times each request", async () => {
    const port = await pongServer();
    const sb = createLocalSandbox(opts({ modelEndpoint: `http://127.0.0.1:${port}/runs/x` }));
    open.push(sb);
    await sb.start();
    const env = sb.launcher(spec(`http://127.0.0.1:${port}`)).env;
    const tapped = new URL(env.ANTHROPIC_BASE_URL ?? "");
    expect(tapped.port).not.toBe(String(port));
    expect(tapped.pathname).toBe("/runs/x");
    expect(env.OTHER).toBe("y");
    const reply = await new Promise<string>((resolve, reject) => {
      const c = net.connect(Number(tapped.port), "127.0.0.1", () => c.write("ping"));
      c.once("data", (b) => {
        c.destroy();
        resolve(b.toString());
      });
      c.on("error", reject);
    });
    expect(reply).toBe("pong");
    expect(sb.modelRequests?.()).toMatchObject({
      via: "tap",
      requests: 1,
      answered: 1,
      last: { answered: true },
    });
  });

  it.each<[string, Partial<SandboxOptions>]>([
    ["an https endpoint", { modelEndpoint: "https://api.example.com" }],
    ["network: host", { modelEndpoint: "http://127.0.0.1:9", network: "host" }],
    [
      "the scripted model in this process",
      {
        modelEndpoint: "http://127.0.0.1:9/runs/x",
        localModelServer: { url: "http://127.0.0.1:9", accept: () => undefined },
      },
    ],
  ])("does not tap %s", async (_name, over) => {
    const sb = createLocalSandbox(opts(over));
    open.push(sb);
    await sb.start();
    const given = spec(over.modelEndpoint ?? "");
    expect(sb.launcher(given)).toEqual(given);
    expect(sb.modelRequests?.()).toBeNull();
  });
});
