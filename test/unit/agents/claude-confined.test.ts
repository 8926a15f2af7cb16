/**
 * Everything about an agent lives in its folder under src/agents/ (docs/agents.md, "Adding an
 * agent"): outside src/agents/, no code names Claude. A lint over the syntax tree of every
 * source file: an identifier containing "claude" (any case) or an import of `agents/claude/` is
 * a finding; strings and comments are data and docs (messages, report values, file names) and
 * are not looked at. The allow-list below is every exception, each with its reason.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SRC = path.join(ROOT, "src");

/**
 * file (relative to src/) -> the identifiers (and `import <path>`) allowed there, each with its
 * reason. Every entry must still be found (the last test), so the list shrinks as code moves.
 */
const ALLOWED: Record<string, string[]> = {
  // Data: `claude_code_version`, a field of events.json.
  "core/evidence.ts": ["claude_code_version"],
  // The library's public export, kept.
  "index.ts": ["resolveClaudeBinary", "import ./agents/claude/binary.js"],
  // Data: the treatment's `claude_md:` (suite YAML, plan.json), written to the agent's memory
  // file; prepareWorkspace's `claudeMd` is its text.
  "plan/run-plan.ts": ["claude_md"],
  "suite/treatments.ts": ["claude_md"],
  "suite/types.ts": ["claude_md"],
  "suite/treatment-entry.ts": ["claude_md", "claude"],
  "workspace/prepare.ts": ["claudeMd"],
  // The health check's and the arm check's workspaces are prepared as a run's: the same field.
  "health/check-task.ts": ["claudeMd"],
  // A run's and the arm check's workspaces are prepared through one call (runner/arm-workspace.ts).
  "runner/arm-workspace.ts": ["claude_md", "claudeMd"],
  // Data: metadata.json's `versions.claude`, the default agent's version.
  "store/metadata.ts": ["claude"],
  "runner/experiment-metadata.ts": ["claude"],
  "report/reporters/folder.ts": ["claude"],
  "report/html/summary-data.ts": ["claude"],
  "telemetry/exporter.ts": ["claude"],
  // The run page's timeline reads Claude Code's stream-json (report/html/timeline.ts).
  "report/html/run-data.ts": ["claudeStream"],
  // The probe hides installed Skills by their memory-file field (a treatment value).
  "triggers/probe.ts": ["claudeMd"],
};

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== path.join(SRC, "agents")) sources(p, out);
    } else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

interface Finding {
  /** Relative to src/. */
  rel: string;
  line: number;
  /** The identifier, or `import <path>`. */
  name: string;
}

/** Every identifier naming Claude and every import of agents/claude/ in `file`. */
function findings(file: string): Finding[] {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = path.relative(SRC, file);
  const out: Finding[] = [];
  const at = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: ts.Node): void => {
    if ((ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) && /claude/i.test(n.text)) {
      out.push({ rel, line: at(n), name: n.text });
    } else if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier !== undefined &&
      ts.isStringLiteral(n.moduleSpecifier) &&
      /(^|\/)agents\/claude\//.test(n.moduleSpecifier.text)
    ) {
      out.push({ rel, line: at(n), name: `import ${n.moduleSpecifier.text}` });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe("no code outside src/agents/ names Claude", () => {
  const files = sources(SRC);
  const found = files.flatMap(findings);

  it("scans the tree", () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it("finds no identifier or import naming Claude but the allowed ones", () => {
    const bad = found.filter((f) => !(ALLOWED[f.rel] ?? []).includes(f.name));
    expect(bad.map((f) => `src/${f.rel}:${f.line} ${f.name}`)).toEqual([]);
  });

  it("allows only what is still there", () => {
    const unused = Object.entries(ALLOWED).flatMap(([rel, names]) =>
      names
        .filter((n) => !found.some((f) => f.rel === rel && f.name === n))
        .map((n) => `src/${rel} ${n}`),
    );
    expect(unused).toEqual([]);
  });
});
