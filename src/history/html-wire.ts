/**
 * The data of a Skill's history page (history/<skill>.html) as its browser client reads it from
 * the page's `#skillbench-history` element. No imports: the browser client
 * (src/report/html/client/history-main.ts) is compiled without Node's types, and trend.ts's
 * `SkillHistory` is checked against this shape where the page is rendered (render-html.ts).
 */
export const HISTORY_PAGE_SCHEMA = "skillbench.history-page.v1";

interface WireInterval {
  low: number;
  high: number;
}

export interface HistoryPageData {
  schema: typeof HISTORY_PAGE_SCHEMA;
  skill: string;
  /** the store the page was read from (a URL's password masked) */
  store: string;
  versions: {
    label: string;
    git_ref: string | null;
    first_recorded: string;
    experiments: number;
    runs: number;
    passed: number;
    pass_rate: number | null;
    interval: WireInterval | null;
    band: string | null;
    change: { delta: number; interval: WireInterval; reading: string } | null;
    cost_per_verdict_usd: number | null;
    scripted: boolean;
  }[];
  flaky: {
    task: string;
    treatment: string;
    agent: string | null;
    model: string | null;
    outcomes: { experiment_id: string; c: number; n: number }[];
  }[];
  triggers: {
    experiment_id: string;
    description: string;
    precision: number | null;
    recall: number | null;
  }[];
}
