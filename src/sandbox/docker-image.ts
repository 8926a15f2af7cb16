/** The image a docker sandbox runs: the task's environment/Dockerfile, else skillbench's default. */
import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { hashTree, sha256 } from "../util/hash.js";
import { stripControls } from "../util/safe-text.js";
import { capture, hostToolEnv, whichSync } from "./exec.js";
import { taskImageTag } from "./image-tag.js";

/**
 * skillbench's default image: the base image plus python3 (bash is in every Debian base), so the
 * validators people write run as they do on the host. Built once per base image, on top of it;
 * a base that has python3 already (.ci/setup-sandbox.sh includes it) needs no network.
 */
function defaultDockerfile(baseImage: string): string {
  return [
    `FROM ${baseImage}`,
    "RUN if ! command -v python3 >/dev/null 2>&1; then \\",
    "      apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 \\",
    "      && rm -rf /var/lib/apt/lists/*; fi \\",
    "    && command -v bash && command -v python3",
    "",
  ].join("\n");
}

/** `skillbench-default:<12 hex>` of the default Dockerfile's text and the base image's id. Pure. */
export function defaultImageTag(dockerfile: string, baseImageId: string): string {
  return `skillbench-default:${sha256(`${dockerfile}\n${baseImageId}`).slice(0, 12)}`;
}

/** The legacy builder's banner, which says nothing about the failure. */
const BANNER =
  /^(DEPRECATED: The legacy builder is deprecated|\s*BuildKit is currently disabled|\s*environment-variable\.|\s*Install the buildx component)/;

function meaningful(text: string): string[] {
  return stripControls(text)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !BANNER.test(l));
}

/**
 * Why a `docker build` failed, from its output: the step that failed and the builder's last line
 * of stderr (without the deprecation banner); for a RUN step that exited non-zero, its own last
 * line of output too; an image that cannot be pulled says so. Pure.
 */
export function buildFailureCause(stdout: string, stderr: string): string {
  const out = meaningful(stdout);
  const err = meaningful(stderr);
  const step = [...out].reverse().find((l) => /^Step \d+\/\d+ : /.test(l)) ?? null;
  const last = err[err.length - 1] ?? null;
  const parts: string[] = [];
  if (step) parts.push(step.replace(/^Step (\d+\/\d+) : /, "step $1 "));
  if (last && /returned a non-zero code/.test(last)) {
    const runOut = [...out]
      .reverse()
      .find((l) => !/^(Step \d+\/\d+ :|--->|Removing intermediate|Sending build context)/.test(l));
    if (runOut) parts.push(runOut);
  }
  if (last) parts.push(last);
  let cause = parts.join(": ") || "docker build failed with no output";
  if (step && /^Step 1\/\d+ : FROM /i.test(step) && last && !/returned a non-zero code/.test(last))
    cause +=
      " (the FROM image is not on this machine and cannot be pulled: no registry is reachable; build it locally, see docs/sandbox.md)";
  return cause.length > 800 ? `${cause.slice(0, 797)}...` : cause;
}

async function build(o: {
  dockerBin: string;
  tag: string;
  args: string[];
  stdin?: string;
  file: string;
  signal?: AbortSignal | undefined;
}): Promise<void> {
  const built = await capture(o.dockerBin, ["build", "-t", o.tag, ...o.args], {
    timeoutMs: 900_000,
    signal: o.signal,
    env: { ...hostToolEnv(), DOCKER_BUILDKIT: "0" },
    ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
  });
  if (built.code !== 0) {
    const cause = built.error ?? buildFailureCause(built.stdout, built.stderr);
    throw new InputError(`docker sandbox: building ${o.file} failed: ${cause}`, { file: o.file });
  }
}

/** Find or build the image for a task; returns its tag. */
export async function ensureTaskImage(o: {
  dockerBin: string;
  environmentDir: string | null;
  agentVersion: string;
  baseImage: string;
  signal?: AbortSignal | undefined;
}): Promise<string> {
  const dockerfile = o.environmentDir ? path.join(o.environmentDir, "Dockerfile") : null;
  if (!dockerfile || !existsSync(dockerfile)) {
    const base = await capture(o.dockerBin, ["image", "inspect", "-f", "{{.Id}}", o.baseImage], {
      signal: o.signal,
    });
    if (base.code !== 0) {
      throw new InputError(
        `docker sandbox: base image ${o.baseImage} is missing; build it with .ci/setup-sandbox.sh (see docs/sandbox.md)`,
        { field: "sandbox" },
      );
    }
    const text = defaultDockerfile(o.baseImage);
    const tag = defaultImageTag(text, base.stdout.trim());
    const has = await capture(o.dockerBin, ["image", "inspect", tag], { signal: o.signal });
    if (has.code === 0) return tag;
    // No context: the Dockerfile comes on stdin.
    await build({
      dockerBin: o.dockerBin,
      tag,
      args: ["-"],
      stdin: text,
      file: `skillbench's default image (${o.baseImage} + python3)`,
      signal: o.signal,
    });
    return tag;
  }
  const ctxDir = o.environmentDir ?? ".";
  const tag = taskImageTag(await hashTree(ctxDir), o.agentVersion);
  const has = await capture(o.dockerBin, ["image", "inspect", tag], { signal: o.signal });
  if (has.code === 0) return tag;
  await build({
    dockerBin: o.dockerBin,
    tag,
    args: ["-f", dockerfile, ctxDir],
    file: dockerfile,
    signal: o.signal,
  });
  return tag;
}

/**
 * The image id (`sha256:…`) a tag names on this machine now, null when it is not there (or no
 * docker): `--reuse` compares it with the id a stored docker run ran in.
 */
export async function dockerImageId(tag: string): Promise<string | null> {
  const bin = whichSync("docker");
  if (bin === null) return null;
  const r = await capture(bin, ["image", "inspect", "-f", "{{.Id}}", tag]).catch(() => null);
  return r?.code === 0 ? r.stdout.trim() || null : null;
}
