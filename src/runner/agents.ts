import os from "node:os";
import { AGENT_NAMES, agentDriver, type AgentDriver } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import type { AgentSetup } from "./context.js";

/**
 * The driver, binary and version of every agent the plan uses, resolved once. A missing binary
 * is bad input naming the treatments that need it; `--agent-bin` applies to the default agent only
 * when the plan uses a single agent (else to none: each is found by its SKILLBENCH_<AGENT>_BIN).
 */
export async function resolveAgents(args: {
  planned: readonly { agent: string; treatment: string }[];
  driver?: AgentDriver | undefined;
  agentBin?: string | undefined;
  hostEnv: Record<string, string | undefined>;
  cwd: string;
}): Promise<Record<string, AgentSetup>> {
  const names = [...new Set(args.planned.map((r) => r.agent))];
  const out: Record<string, AgentSetup> = {};
  for (const name of names) {
    const driver = args.driver?.name === name ? args.driver : agentDriver(name);
    if (driver === null)
      throw new InputError(`unknown agent "${name}": use one of ${AGENT_NAMES.join(", ")}`, {
        field: "--agent",
      });
    const agentBin = names.length === 1 ? args.agentBin : undefined;
    const bin = driver.resolveBinary({ agentBin, env: args.hostEnv });
    if ("error" in bin) {
      const users = [
        ...new Set(args.planned.filter((r) => r.agent === name).map((r) => r.treatment)),
      ];
      throw new InputError(`${bin.error} (needed by treatment ${users.join(", ")})`, {
        field: names.length === 1 ? "--agent-bin" : "agent",
      });
    }
    const version = await driver.version(
      bin.path,
      { PATH: args.hostEnv.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() },
      args.cwd,
    );
    out[name] = { driver, bin, version };
  }
  return out;
}
