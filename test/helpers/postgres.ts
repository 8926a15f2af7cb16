/**
 * A real PostgreSQL server for the history-store tests: a fresh cluster (initdb) in a temporary
 * folder, listening on 127.0.0.1 at a free port with password authentication, stopped by the
 * test. Debian's postgresql package puts its binaries under /usr/lib/postgresql/<major>/bin;
 * initdb refuses to run as root, so as root the cluster belongs to the `postgres` user the
 * package creates (.ci/run installs it).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { unusedPort } from "./redis.js";

const run = promisify(execFile);

export interface TestPostgres {
  /** postgres://skillbench:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  password: string;
  stop(): Promise<void>;
}

/** The folder of initdb and pg_ctl: the newest major version Debian installed; null when none is. */
function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => existsSync(path.join(root, d, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return path.join(root, majors[0], "bin");
  }
  return null;
}

async function asOwner(
  bin: string,
  tool: string,
  args: string[],
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  const exe = path.join(bin, tool);
  if (owner) await run("runuser", ["-u", "postgres", "--", exe, ...args], { timeout: 60_000 });
  else await run(exe, args, { timeout: 60_000 });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  const dir = await mkdtemp(path.join(tmpdir(), "skillbench-pg-"));
  const data = path.join(dir, "data");
  const password = "hist-pw-7f3a";
  const pwfile = path.join(dir, "pw");
  await writeFile(pwfile, `${password}\n`);
  let owner: { uid: number; gid: number } | null = null;
  if (process.getuid?.() === 0) {
    const { stdout: uid } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    owner = { uid: Number(uid.trim()), gid: Number(gid.trim()) };
    await chown(dir, owner.uid, owner.gid);
    await chown(pwfile, owner.uid, owner.gid);
    await chmod(dir, 0o700);
  }
  await asOwner(
    bin,
    "initdb",
    ["-D", data, "-U", "skillbench", "--pwfile", pwfile, "-A", "scram-sha-256", "--no-sync"],
    owner,
  );
  for (let i = 0; i < 5; i++) {
    const port = await unusedPort();
    try {
      await asOwner(
        bin,
        "pg_ctl",
        [
          "-D",
          data,
          "-l",
          path.join(dir, "log"),
          "-w",
          "-t",
          "60",
          "-o",
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
          "start",
        ],
        owner,
      );
    } catch {
      continue;
    }
    return {
      url: `postgres://skillbench:${password}@127.0.0.1:${port}/postgres`,
      password,
      stop: async () => {
        await asOwner(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], owner).catch(
          () => undefined,
        );
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error("PostgreSQL did not start");
}
