/**
 * A worker thread of `rescore` (rescore-threads.ts, util/threads.ts): it builds the rescore's
 * context from the results folder as the main thread does (rescore-context.ts), with no judge
 * (runs judged again stay on the main thread), and rescores each run folder it is sent. The
 * files it writes are the run's own; the run index and the experiment reports stay with the
 * main thread.
 */
import { z } from "zod";
import { errorToSend } from "../core/errors.js";
import { readSuiteSnapshot } from "../store/suite-snapshot.js";
import { serveItems } from "../util/threads.js";
import { rescoreContext } from "./rescore-context.js";
import { rescoreRun } from "./rescore-run.js";
import { RescoreThreadSettingsSchema } from "./rescore-threads.js";

serveItems(
  RescoreThreadSettingsSchema,
  z.string(),
  async (settings) => {
    const snapshot = await readSuiteSnapshot(settings.outDir);
    const ctx = await rescoreContext(
      settings.outDir,
      snapshot,
      { profile: settings.profile, judgeFlags: { judge: false } },
      settings.hostEnv,
      { url: null, scriptHasJudge: false, scriptId: "" },
    );
    return (id) => rescoreRun(ctx, id);
  },
  errorToSend,
);
