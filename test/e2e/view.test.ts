/** skillbench view on something that is not a results folder: exit 2, nothing served. */
import { describe, expect, it } from "vitest";
import { makeSandbox, runCli } from "../helpers/cli.js";

describe("skillbench view", () => {
  it("refuses a folder that is not a results folder, before listening", async () => {
    const box = await makeSandbox("skillbench-view-");
    try {
      const res = await runCli(["view", box.dir("not-results")], { env: box.env() });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/not a skillbench results folder/);
      expect(res.stdout).not.toMatch(/http:\/\//);
    } finally {
      await box.remove();
    }
  });
});
