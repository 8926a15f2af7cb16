/**
 * What a rescore settles once for all its runs (RescoreContext, rescore-run.ts): the suite's
 * tasks and treatments as the results folder keeps them, its rubric profiles, the judge, the
 * redactor. Built by `rescore` itself and by each of its worker threads (rescore-workers.ts).
 */
import { loadPricing } from "../cost/pricing.js";
import path from "node:path";
import { loadSuiteProfiles, resolveProfile, type RubricProfile } from "../scoring/index.js";
import type { SuiteSnapshot } from "../store/suite-snapshot.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import { defaultAgent } from "../agents/index.js";
import { makeRedactor, secretsFromEnv } from "../util/redact.js";
import { setupJudge, type JudgeFlags } from "./judge-setup.js";
import type { RescoreContext } from "./rescore-run.js";

/** The scripted model server that may serve the judge, as `rescore --model-script` started it. */
export interface JudgeServer {
  url: string | null;
  scriptHasJudge: boolean;
  scriptId: string;
}

/** The context every run of a rescore of `outDir` shares. */
export async function rescoreContext(
  outDir: string,
  snapshot: SuiteSnapshot,
  opts: { profile?: string | undefined; judgeFlags?: JudgeFlags | undefined },
  hostEnv: Record<string, string | undefined>,
  judgeServer: JudgeServer,
): Promise<RescoreContext> {
  // The profiles kept in the results folder: edit them there and rescore.
  const suiteProfiles = await loadSuiteProfiles(
    snapshot.profiles.map((p) => ({ name: p.name, file: path.join(outDir, p.file) })),
  );
  const judge = setupJudge({
    flags: opts.judgeFlags ?? {},
    hostEnv,
    suiteSection: undefined,
    outDir,
    scriptedServerUrl: judgeServer.url,
    scriptHasJudge: judgeServer.scriptHasJudge,
    scriptId: judgeServer.scriptId,
  });
  const redact = makeRedactor(secretsFromEnv(hostEnv));
  const bin = defaultAgent().resolveBinary({ env: hostEnv });
  // Looked up once per rescore, not per run (the first of a name, as the suite lists them).
  const tasks = new Map<string, TaskSpec>();
  for (const t of snapshot.tasks) if (!tasks.has(t.name)) tasks.set(t.name, t);
  const treatments = new Map<string, TreatmentSpec>();
  for (const t of snapshot.treatments) if (!treatments.has(t.name)) treatments.set(t.name, t);
  const profiles = new Map<string, RubricProfile>();
  const profileNamed = (name: string): RubricProfile => {
    let p = profiles.get(name);
    if (p === undefined) profiles.set(name, (p = resolveProfile(name, suiteProfiles)));
    return p;
  };
  return {
    outDir,
    // The shipped table (a run's --pricing is not recorded, so a rescore prices its tokens with
    // the shipped one); a run whose agent reported a cost keeps it.
    pricing: await loadPricing(),
    profile: opts.profile,
    tasks,
    treatments,
    profileNamed,
    judge,
    redact,
    hostEnv,
    cliBin: "error" in bin ? undefined : bin.path,
  };
}
