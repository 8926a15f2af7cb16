/**
 * The CLI loads only the named command's module (cli/commands/index.ts): the table must name
 * exactly the top-level commands each module registers, or a command would be missing when
 * named (`skillbench report` with report in another module than the table says).
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMAND_MODULES, registerCommands } from "../../../src/cli/commands/index.js";

const names = (p: Command): string[] => p.commands.map((c) => c.name());

describe("the command table", () => {
  it.each(COMMAND_MODULES.map((m) => [m.names.join(", "), m]))(
    "its module registers %s, no more and no fewer",
    async (_label, m) => {
      const program = new Command();
      await m.register(program, { exitCode: 0 });
      expect(names(program)).toEqual(m.names);
    },
  );

  it("registers one module for a named command and every module otherwise", async () => {
    const all = new Command();
    await registerCommands(all, { exitCode: 0 }, ["node", "skillbench", "--help"]);
    expect(names(all)).toEqual(COMMAND_MODULES.flatMap((m) => m.names));
    const one = new Command();
    await registerCommands(one, { exitCode: 0 }, ["node", "skillbench", "compare", "x"]);
    expect(names(one)).toEqual(["report", "compare", "rescore", "export"]);
  });
});
