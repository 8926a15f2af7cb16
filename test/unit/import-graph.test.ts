/**
 * Imports in src/ flow one way (docs/ARCHITECTURE.md, "Folders"): no two modules import each
 * other, directly or round a loop, and a type-only import counts like any other (a loop of types
 * still ties the files together: neither can move or change alone). The graph is read with
 * TypeScript's own scanner (`ts.preProcessFile`: `import`, `import type`, `export … from`,
 * `import()`; not comments or strings), relative specifiers only.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** Every .ts file under `dir`, as a path relative to it (forward slashes). */
function tsFiles(dir: string, base = dir, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, base, out);
    else if (e.name.endsWith(".ts")) out.push(path.relative(base, p).split(path.sep).join("/"));
  }
  return out;
}

/** Each file's imports of other files of the set (ESM specifiers name `.js`, the source is `.ts`). */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = path.posix.join(path.posix.dirname(file), fileName).replace(/\.js$/, ".ts");
      if (sources.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The import circles: each strongly connected set of two or more files, or a file that imports
 * itself, sorted (Tarjan's algorithm, iterative so a deep chain cannot overflow the stack).
 */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to))
          low.set(top.node, Math.min(low.get(top.node) ?? 0, index.get(to) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(top.node) ?? 0));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const members: string[] = [];
      for (let m = stack.pop(); m !== undefined; m = m === top.node ? undefined : stack.pop()) {
        onStack.delete(m);
        members.push(m);
      }
      if (members.length > 1 || edges.includes(top.node)) circles.push(members.sort());
    }
  }
  return circles.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

/** Every file `from` reaches through its imports, itself excluded. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(graph.get(f) ?? []));
  }
  return seen;
}

describe("the import graph", () => {
  const table: Array<{ name: string; files: Record<string, string>; circles: string[][] }> = [
    {
      name: "a chain",
      files: {
        "a.ts": 'import { b } from "./b.js";',
        "b.ts": 'import { c } from "./c.js";',
        "c.ts": "export const c = 1;",
      },
      circles: [],
    },
    {
      name: "two files through type-only imports",
      files: {
        "x/types.ts": 'import type { Row } from "./rows.js";\nexport type T = Row;',
        "x/rows.ts": 'export type { T } from "./types.js";\nexport interface Row { a: 1 }',
      },
      circles: [["x/rows.ts", "x/types.ts"]],
    },
    {
      name: "a loop of three across folders, beside a file outside it",
      files: {
        "p/a.ts": 'import { b } from "../q/b.js";',
        "q/b.ts": 'import { c } from "./c.js";',
        "q/c.ts": 'const a = await import("../p/a.js");',
        "q/d.ts": 'import { c } from "./c.js";',
      },
      circles: [["p/a.ts", "q/b.ts", "q/c.ts"]],
    },
    {
      name: "a file importing itself",
      files: { "s.ts": 'import * as self from "./s.js";' },
      circles: [["s.ts"]],
    },
    {
      name: "imports in comments and strings, and packages, are not edges",
      files: {
        "m.ts":
          '// import { n } from "./n.js";\nconst t = `import { n } from "./n.js"`;\nimport { z } from "zod";',
        "n.ts": 'import { m } from "./m.js";',
      },
      circles: [],
    },
  ];
  it.each(table)("finds the circles of $name", ({ files, circles }) => {
    expect(importCircles(importGraph(new Map(Object.entries(files))))).toEqual(circles);
  });

  const sources = new Map(tsFiles(SRC).map((f) => [f, readFileSync(path.join(SRC, f), "utf8")]));
  const graph = importGraph(sources);

  it("reads the whole of src/", () => {
    expect(sources.size).toBeGreaterThan(300);
    expect(graph.get("runner/run-suite.ts")).toContain("runner/plan-suite.ts");
  });

  it("has no import circle in src/", () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it("plan/ (roles, grouping, fingerprints among it) stands below report/ and runner/", () => {
    const plan = [...graph.keys()].filter((f) => f.startsWith("plan/"));
    const up = plan.flatMap((f) =>
      [...reachable(graph, f)]
        .filter((t) => t.startsWith("report/") || t.startsWith("runner/"))
        .map((t) => `${f} -> ${t}`),
    );
    expect(plan.length).toBeGreaterThan(0);
    expect(up).toEqual([]);
  });

  it("planning a suite takes nothing from report/ (plan-suite.ts and the modules it plans with)", () => {
    const planning = ["runner/plan-suite.ts", "runner/baseline-from.ts", "runner/preflight.ts"];
    const up = planning.flatMap((f) =>
      (graph.get(f) ?? []).filter((t) => t.startsWith("report/")).map((t) => `${f} -> ${t}`),
    );
    expect(up).toEqual([]);
  });
});
