import type { ResolvedBinary } from '../agents/claude/binary.js';
import type { Suite } from '../suite/index.js';
import type { Redactor } from '../util/redact.js';
import type { JudgeCache, JudgeConfig } from '../judge/index.js';

export type Role = 'subject' | 'simulator' | 'judge';

export interface Endpoint {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  authToken?: string | undefined;
}

/** Everything a run needs from the experiment around it. */
export interface RunContext {
  experimentId: string;
  outDir: string;
  suite: Suite;
  bin: ResolvedBinary;
  agentVersion: string | null;
  endpoint: (run: { task: string; treatment: string; rep: number }, role: Role) => Endpoint;
  model: string | null;
  profileOverride: string | null;
  declaredEnv: Record<string, string>;
  passEnv: string[];
  hostEnv: Record<string, string | undefined>;
  redact: Redactor;
  timeoutSecOverride: number | null;
  keepWorkspaces: boolean;
  tmpBase?: string | undefined;
  /** The LLM judge (disabled unless asked for) and its answer cache. */
  judgeFor: (run: { task: string; treatment: string; rep: number }) => JudgeConfig;
  judgeCache: JudgeCache | null;
  /** Aborted on the second Ctrl-C: running agents are killed. */
  signal: AbortSignal;
}
