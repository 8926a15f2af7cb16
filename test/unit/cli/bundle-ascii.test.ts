// The CLI bundle is ASCII only (scripts/build-cli.mjs escapes what esbuild leaves), because the
// launcher reads it as latin1 (scripts/cli-launcher.mjs): a non-ASCII byte would be misread.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

describe("dist/cli/bundle.cjs", () => {
  it("holds no byte above 0x7f, and its non-ASCII patterns survive as escapes", async () => {
    const bytes = await readFile(new URL("../../../dist/cli/bundle.cjs", import.meta.url));
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
    // The authoring-skill profile's Chinese heading pattern (工作流节点), escaped.
    expect(bytes.toString("latin1")).toContain("\\u5de5\\u4f5c\\u6d41\\u8282\\u70b9");
  });

  it("the launcher reads it as latin1", async () => {
    const launcher = await readFile(new URL("../../../dist/cli/main.js", import.meta.url), "utf8");
    expect(launcher).toContain('readFileSync(bundle, "latin1")');
  });
});
