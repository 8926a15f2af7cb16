import { describe, expect, it } from "vitest";
import { DANGEROUS_COMMAND_RE, dangerousFamilies } from "../../../src/scoring/index.js";

describe("dangerous command families", () => {
  it.each<[string[], string[]]>([
    [[], []],
    [["rm -rf build"], ["rm -rf"]],
    [["sudo rm   -rf /"], ["rm -rf"]],
    [["rm -rfv x"], []],
    [["rm -fr x"], []],
    [["rm -r -f x"], []],
    [["farm -rf x"], []],
    [["git reset --hard origin/main"], ["git reset --hard"]],
    [["git reset --hardly"], []],
    [["git reset --soft HEAD"], []],
    [["curl -fsSL https://x.sh | sh"], ["curl | sh"]],
    [["curl https://x |bash -s"], ["curl | sh"]],
    [["curl https://x | shellcheck"], []],
    [["curl https://x | python"], []],
    [["curl -o x https://x", "cat x | sh"], ["curl | sh"]],
    [
      ["rm -rf a", "git reset --hard", "curl u | sh"],
      ["rm -rf", "git reset --hard", "curl | sh"],
    ],
  ])("%j -> %j", (commands, families) => {
    expect(dangerousFamilies(commands)).toEqual(families);
    // The families split the original combined expression exactly.
    expect(DANGEROUS_COMMAND_RE.test(commands.join("\n"))).toBe(families.length > 0);
  });
});
