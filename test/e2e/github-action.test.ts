/**
 * The GitHub Action's steps (action.yml → scripts/action/action.mjs) run on this machine, not in
 * GitHub's runner: a fixture git repository with three Skills of which a pull request changes
 * one, the GitHub environment simulated (GITHUB_EVENT_PATH with a pull_request event,
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_API_URL at a stub of the comments API on 127.0.0.1),
 * the scripted model serving the Skill's own model script. Two pushes: the first creates the
 * comment, the second updates it (PATCH, no second POST).
 */
import { execFile, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, assertBuilt, makeSandbox, type Sandbox } from "../helpers/cli.js";

const SCRIPT = path.join(REPO_ROOT, "scripts", "action", "action.mjs");
const TOKEN = "ghs_secret-token-never-printed";

interface Call {
  method: string;
  url: string;
  auth: string | undefined;
  body: { body?: string } | null;
}

let box: Sandbox;
let server: Server;
let api = "";
const calls: Call[] = [];
const comments: { id: number; body: string }[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = "";
    req.setEncoding("utf8").on("data", (c: string) => (s += c));
    req.on("end", () => resolve(s));
  });
}

/** The comments API as the action uses it: list, create, update. */
function startStub(): Promise<string> {
  server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const body = text ? (JSON.parse(text) as { body?: string }) : null;
      calls.push({
        method: req.method ?? "",
        url: req.url ?? "",
        auth: req.headers.authorization,
        body,
      });
      const send = (code: number, json: unknown): void => {
        res.writeHead(code, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const url = req.url ?? "";
      if (req.method === "GET" && url.startsWith("/repos/acme/skills/issues/7/comments"))
        return send(200, [{ id: 1, body: "an unrelated comment" }, ...comments]);
      if (req.method === "POST" && url === "/repos/acme/skills/issues/7/comments") {
        const c = { id: 100 + comments.length, body: body?.body ?? "" };
        comments.push(c);
        return send(201, c);
      }
      const m = /^\/repos\/acme\/skills\/issues\/comments\/(\d+)$/.exec(url);
      const c = m ? comments.find((x) => x.id === Number(m[1])) : undefined;
      if (req.method === "PATCH" && c) {
        c.body = body?.body ?? "";
        return send(200, c);
      }
      send(404, { message: "Not Found" });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function git(repo: string, ...args: string[]): string {
  const r = spawnSync("git", args, { cwd: repo, encoding: "utf8", env: box.env() });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

interface Push {
  out: Record<string, string>;
  stdout: string;
  summary: string;
  codes: Record<string, number | null>;
}

/** A step run without blocking this process: the stub API answers from its event loop. */
function step(
  name: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // Bounded: a step that hangs is killed and fails here, not at the hook's timeout.
    const opts = { cwd, env, timeout: 300_000, killSignal: "SIGKILL" as const };
    const child = execFile(process.execPath, [SCRIPT, name], opts, (err, stdout, stderr) =>
      resolve({ code: err ? (child.exitCode ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** One push: the action's script steps in order, as action.yml runs them. */
async function push(repo: string, n: number): Promise<Push> {
  const outputFile = path.join(box.root, `output-${n}`);
  const summaryFile = path.join(box.root, `summary-${n}.md`);
  const eventFile = path.join(box.root, "event.json");
  writeFileSync(eventFile, JSON.stringify({ pull_request: { number: 7, base: { ref: "main" } } }));
  writeFileSync(outputFile, "");
  const env = box.env({
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_API_URL: api,
    GITHUB_REPOSITORY: "acme/skills",
    GITHUB_BASE_REF: "main",
    GITHUB_TOKEN: TOKEN,
    SKILLBENCH_BIN: path.join(REPO_ROOT, "dist", "cli", "main.js"),
    SKILLBENCH_ACTION_DIR: path.join(box.root, `action-${n}`),
    SKILLBENCH_EVAL_ARGS: JSON.stringify([
      "--model-script",
      "{skill}/model-script.yaml",
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      "-j",
      "2",
    ]),
    INPUT_SKILLS_ROOT: "skills",
    INPUT_FAIL_ON: "regression",
  });
  let stdout = "";
  const codes: Record<string, number | null> = {};
  for (const name of ["changed", "evaluate", "comment", "gate"]) {
    const r = await step(name, repo, env);
    stdout += r.output;
    codes[name] = r.code;
  }
  const out: Record<string, string> = {};
  for (const m of readFileSync(outputFile, "utf8").matchAll(
    /^([\w-]+)<<__SKILLBENCH__\n([\s\S]*?)\n__SKILLBENCH__$/gm,
  ))
    out[m[1] ?? ""] = m[2] ?? "";
  return {
    out,
    stdout,
    codes,
    summary: existsSync(summaryFile) ? readFileSync(summaryFile, "utf8") : "",
  };
}

let repo = "";
let first: Push;
let second: Push;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("action");
  api = await startStub();
  repo = box.dir("repo");
  for (const s of ["greeter", "greeter-v1", "comet-style"])
    cpSync(path.join(REPO_ROOT, "test", "fixtures", "skills", s), path.join(repo, "skills", s), {
      recursive: true,
    });
  git(repo, "init", "-q", "-b", "main");
  git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".");
  git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "base");
  git(repo, "checkout", "-q", "-b", "pr");
  appendFileSync(path.join(repo, "skills", "greeter", "NOTES.md"), "Why greetings end with '!'.\n");
  git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".");
  git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "greeter v2");
  first = await push(repo, 1);
  appendFileSync(path.join(repo, "skills", "greeter", "NOTES.md"), "And whom.\n");
  git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "greeter v3");
  second = await push(repo, 2);
}, 600_000);

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await box.remove();
});

describe("the GitHub Action's steps", () => {
  it("evaluates only the changed Skill", () => {
    expect(first.codes).toEqual({ changed: 0, evaluate: 0, comment: 0, gate: 0 });
    expect(JSON.parse(first.out.skills ?? "")).toEqual(["skills/greeter"]);
    expect(Object.keys(JSON.parse(first.out.results ?? "{}") as object)).toEqual([
      "skills/greeter",
    ]);
    expect(
      existsSync(path.join(box.root, "action-1", "results", "skills__greeter", "eval.json")),
    ).toBe(true);
    expect(existsSync(path.join(box.root, "action-1", "results", "skills__comet-style"))).toBe(
      false,
    );
  });

  it("sets the outputs: band, delta and cost per Skill as JSON", () => {
    const band = JSON.parse(first.out.band ?? "") as Record<string, string | null>;
    const delta = JSON.parse(first.out.delta ?? "") as Record<string, number | null>;
    const cost = JSON.parse(first.out.cost ?? "") as Record<string, number | null>;
    expect(["improved", "non_inferior", "regressed", "inconclusive"]).toContain(
      band["skills/greeter"],
    );
    expect(typeof delta["skills/greeter"]).toBe("number");
    expect(Object.keys(cost)).toEqual(["skills/greeter"]);
  });

  it("creates the comment on the first push and updates it on the second (PATCH, one POST)", () => {
    const writes = calls.filter((c) => c.method !== "GET").map((c) => c.method);
    expect(writes).toEqual(["POST", "PATCH"]);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body.startsWith("<!-- skillbench-comment -->")).toBe(true);
    expect(comments[0]?.body).toContain("### greeter");
    expect(comments[0]?.body).toContain("action-2");
    expect(calls.every((c) => c.auth === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("writes the step summary and never prints the token", () => {
    expect(first.summary).toContain("### greeter");
    expect(second.summary).toContain("### greeter");
    expect(first.stdout + second.stdout).not.toContain(TOKEN);
    expect(first.stdout).toContain("Created comment 100 on #7");
    expect(second.stdout).toContain("Updated comment 100 on #7");
  });
});
