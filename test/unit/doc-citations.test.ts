/**
 * Comments and docs point inside the repository: no citation of the original harness's fact
 * sheet (a document outside it, cited as "facts" plus a section number), no path of the machine
 * it was written on, and every `docs/<name>.md` a source file names exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SKIP = new Set(["node_modules", "dist", ".git", "results", "golden"]);
const TEXT = /\.(ts|mts|mjs|js|md|toml|yaml|yml|py|sh)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (TEXT.test(e.name)) out.push(p);
  }
  return out;
}

const files = [
  ...["src", "test", "docs", "examples", "bench"].flatMap((d) => walk(path.join(ROOT, d))),
  path.join(ROOT, "README.md"),
];
// Built from parts so that this file does not match itself.
const CITATION = new RegExp(["\\bfacts", "(?:section|sections|§)?", "§?\\d"].join("\\s*"), "i");
const OUTSIDE = new RegExp(["comet-eval", "facts|/work/", "shared"].join("-?"), "i");

describe("citations point inside the repository", () => {
  it("scans the tree", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it("no comment or doc cites the fact sheet by section, or a path outside the repo", () => {
    const hits: string[] = [];
    for (const f of files) {
      readFileSync(f, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (CITATION.test(line) || OUTSIDE.test(line))
            hits.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });

  it("every docs/*.md named in src/ exists", () => {
    const missing = new Set<string>();
    for (const f of files.filter((x) => x.startsWith(path.join(ROOT, "src")))) {
      for (const m of readFileSync(f, "utf8").matchAll(/\bdocs\/([\w-]+\.md)\b/g))
        if (!existsSync(path.join(ROOT, "docs", m[1] ?? "")))
          missing.add(`${path.relative(ROOT, f)}: ${m[0]}`);
    }
    expect([...missing]).toEqual([]);
  });
});
