/**
 * Packed digests: the run digests of a results folder held in columns instead of one object
 * of some thirty fields per run (docs/ARCHITECTURE.md "Run digests and the run index").
 *
 * A run's digest is split into what it shares with other runs and what is its own:
 * - every field whose value repeats across runs (experiment, task, treatment, status, checks,
 *   rubric, sandbox, agent...) is numbered per field, once per distinct value (by identity for
 *   the run index's shared values, else by JSON text), and the run keeps one number for the
 *   whole combination of them ("profile" below): a few thousand combinations stand for 100,000
 *   runs; the fields whose value may differ from run to run (judge, model_api, interaction,
 *   queue) are numbered the same way, each run keeping its own number for each;
 * - its own numbers (rep, the transcript's counts and cost, the timing) sit in typed arrays,
 *   its start and end times as milliseconds (kept only when `toISOString` gives the text back);
 * - its run id is not kept when it is the one the plan gives (`<task>-<treatment>[@<agent>]-r<rep>`,
 *   plan/matrix.ts); else it is kept as a string.
 * Each run is then a `PackedDigest`: a row number whose getters give back the digest's fields,
 * equal to the digest's own (the shared values are the very objects, the `events_summary` and
 * `timing` objects are built on each read). A digest that does not fit the columns (a number
 * that is not an integer where one is expected, a time that does not read back the same, a
 * field order other than compactDigest's) is kept as it is: the store never changes a value.
 *
 * A packed digest has no own fields: spreading it or `Object.keys` gives nothing, and
 * `JSON.stringify` uses its `toJSON` (the plain digest). Code that needs a plain object calls
 * `compactDigest` (core/digest.ts).
 */
import type { RunDigest } from "../core/digest.js";
import { isoMillis, isoText } from "../util/iso-time.js";

/** Digest fields in compactDigest's order. */
const FIELDS = [
  "run_id",
  "experiment_id",
  "task",
  "treatment",
  "rep",
  "passed",
  "status",
  "outcome",
  "outcome_detail",
  "checks_passed",
  "checks_failed",
  "failures",
  "model_api",
  "rubric",
  "rubric_lines",
  "events_summary",
  "skill_sources",
  "sample_quality",
  "failure_attribution",
  "interaction",
  "judge",
  "model",
  "sandbox",
  "agent",
  "hashes",
  "timing",
] as const satisfies ReadonlyArray<keyof RunDigest>;

/** The tokens by kind, in digestOf's order (absent from digests made before they were kept). */
const TOKEN_KINDS = [
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens",
] as const;

/** events_summary fields in digestOf's order (with TOKEN_KINDS after `tool_calls`, or without them). */
const EVENTS_FIELDS = [
  "duration_seconds",
  "num_turns",
  "tool_calls",
  ...TOKEN_KINDS,
  "total_tokens",
  "total_cost_usd",
  "skills_invoked",
  "scripts_used",
  "profile",
] as const;
const EVENTS_FIELDS_UNKINDED = EVENTS_FIELDS.filter(
  (f) => !(TOKEN_KINDS as readonly string[]).includes(f),
);

const TIMING_FIELDS = ["started_at", "finished_at", "wall_ms"] as const;

/**
 * The fields a profile holds, by position. `events` is the transcript summary's shared part
 * (its lists and profile name; null when the run has no summary).
 */
const P = {
  experiment_id: 0,
  task: 1,
  treatment: 2,
  passed: 3,
  status: 4,
  outcome: 5,
  outcome_detail: 6,
  checks_passed: 7,
  checks_failed: 8,
  failures: 9,
  rubric: 10,
  rubric_lines: 11,
  events: 12,
  skill_sources: 13,
  sample_quality: 14,
  failure_attribution: 15,
  model: 16,
  sandbox: 17,
  agent: 18,
  hashes: 19,
} as const;
const PROFILE_SIZE = 20;

/**
 * Fields whose value may differ from run to run (a judge block's reasons and prompt hash, the
 * model server's request counts, an interaction's counters, a queue record): numbered as the
 * others, but each run keeps its own number (4 bytes a field), so that they do not multiply
 * the profiles. `queue` is undefined for a local run, `skill_usage` for a run without a Skill
 * (which files a run read varies from run to run).
 */
const O = { model_api: 0, interaction: 1, judge: 2, queue: 3, skill_usage: 4 } as const;
const OWN_SIZE = 5;

type Events = NonNullable<RunDigest["events_summary"]>;
/** The transcript summary's part that repeats across runs. */
interface EventsShared {
  skills_invoked: Events["skills_invoked"];
  scripts_used: Events["scripts_used"];
  profile: Events["profile"];
  /** the digest has the tokens by kind (a digest made before they were kept has not) */
  kinds: boolean;
}

/** Int32 stands for null in the integer columns (no count is this low). */
const NULL_INT = -0x80000000;

const isInt32 = (v: number): boolean => Number.isInteger(v) && v > NULL_INT && v <= 0x7fffffff;
const intOrNull = (v: unknown): boolean =>
  v === null || (typeof v === "number" && isInt32(v) && !Object.is(v, -0));
const numOrNull = (v: unknown): boolean =>
  v === null || (typeof v === "number" && !Number.isNaN(v));

/** Does `o` have exactly these own keys, in this order? */
function keysAre(o: object, keys: readonly string[]): boolean {
  const own = Object.keys(o);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (own[i] !== keys[i]) return false;
  return true;
}

/**
 * The run id the plan gives a run (plan/matrix.ts), with the agent's name or without (null).
 * Joined, not concatenated: one flat string (a concatenation is a tree of pieces, twice the
 * memory where a report keeps the id, e.g. comparison.json's per-run rows).
 */
function plannedId(task: string, treatment: string, rep: number, agent: string | null): string {
  // Template literals, not an array joined: this runs for every run at every reading (and at
  // every read of a run id); the same text (a number converts the same way in both).
  return agent === null ? `${task}-${treatment}-r${rep}` : `${task}-${treatment}@${agent}-r${rep}`;
}

/** Numbers each distinct value of one field: by identity for frozen values (shared ones), else by JSON text. */
class FieldValues {
  private readonly byIdentity = new Map<unknown, number>();
  private readonly byJson = new Map<string, number>();
  readonly values: unknown[] = [];

  /** Forget how values were numbered (the values stay): what numbering holds besides them, JSON texts among it, is freed. */
  forget(): void {
    this.byIdentity.clear();
    this.byJson.clear();
  }

  idOf(v: unknown): number {
    const primitive = typeof v !== "object" || v === null;
    const known = primitive || Object.isFrozen(v) ? this.byIdentity.get(v) : undefined;
    if (known !== undefined) return known;
    let id: number | undefined;
    if (!primitive) {
      const json = JSON.stringify(v);
      id = this.byJson.get(json);
      // Frozen: every run with this value shares it (as the run index's shared values are).
      if (id === undefined) this.byJson.set(json, (id = this.add(Object.freeze(v))));
      if (Object.isFrozen(v)) this.byIdentity.set(v, id);
    } else this.byIdentity.set(v, (id = this.add(v)));
    return id;
  }

  private add(v: unknown): number {
    this.values.push(v);
    return this.values.length - 1;
  }
}

/** The columns of a set of packed digests; `add` packs one. */
export class PackedDigests {
  private readonly fields = Array.from({ length: PROFILE_SIZE }, () => new FieldValues());
  /** the values of the fields in O, by field */
  private readonly ownFields = Array.from({ length: OWN_SIZE }, () => new FieldValues());
  private readonly profileIds = new Map<string, number>();
  /** each profile's values, by the positions in P */
  readonly profiles: unknown[][] = [];
  private size = 0;
  profile: Uint32Array;
  /** each run's numbers of the fields in O, OWN_SIZE a run */
  own: Uint32Array;
  rep: Int32Array;
  /** events_summary's numbers (NaN or NULL_INT: null; unused when the profile has no summary) */
  duration: Float64Array;
  cost: Float64Array;
  turns: Int32Array;
  toolCalls: Int32Array;
  tokens: Int32Array;
  /** the tokens by kind, in TOKEN_KINDS' order (NULL_INT: null) */
  input: Int32Array;
  output: Int32Array;
  cacheRead: Int32Array;
  cacheWrite: Int32Array;
  started: Float64Array;
  finished: Float64Array;
  wall: Float64Array;
  /** bit 0: the run id carries the agent's name; bit 1: the run id is in `runIds` */
  idKind: Uint8Array;
  /** run ids that are not the planned one, by row */
  readonly runIds = new Map<number, string>();

  /** `capacity`: the number of rows expected (the columns grow past it). */
  constructor(capacity = 64) {
    const n = Math.max(1, capacity);
    this.profile = new Uint32Array(n);
    this.own = new Uint32Array(n * OWN_SIZE);
    this.rep = new Int32Array(n);
    this.duration = new Float64Array(n);
    this.cost = new Float64Array(n);
    this.turns = new Int32Array(n);
    this.toolCalls = new Int32Array(n);
    this.tokens = new Int32Array(n);
    this.input = new Int32Array(n);
    this.output = new Int32Array(n);
    this.cacheRead = new Int32Array(n);
    this.cacheWrite = new Int32Array(n);
    this.started = new Float64Array(n);
    this.finished = new Float64Array(n);
    this.wall = new Float64Array(n);
    this.idKind = new Uint8Array(n);
  }

  /** Rows held. */
  get length(): number {
    return this.size;
  }

  /**
   * The digest as a packed row, or the digest itself when it does not fit the columns (see the
   * file comment): either way a RunDigest with the same fields and values.
   */
  add(d: RunDigest): RunDigest {
    if (!keysAre(d, FIELDS)) {
      // the optional fields a row holds, in compactDigest's order
      const extra = [
        ...(d.queue === undefined ? [] : ["queue"]),
        ...(d.skill_usage === undefined ? [] : ["skill_usage"]),
      ];
      if (extra.length === 0 || !keysAre(d, [...FIELDS, ...extra])) return d;
    }
    if (!isInt32(d.rep)) return d;
    const es = d.events_summary;
    let kinds = false;
    if (es !== null) {
      kinds = keysAre(es, EVENTS_FIELDS);
      if (!kinds && !keysAre(es, EVENTS_FIELDS_UNKINDED)) return d;
      if (!numOrNull(es.duration_seconds) || !numOrNull(es.total_cost_usd)) return d;
      if (!intOrNull(es.num_turns) || !intOrNull(es.total_tokens)) return d;
      if (kinds && !TOKEN_KINDS.every((k) => intOrNull(es[k]))) return d;
      if (typeof es.tool_calls !== "number" || !intOrNull(es.tool_calls)) return d;
    }
    const t = d.timing;
    const started = isoMillis(t.started_at);
    const finished = isoMillis(t.finished_at);
    if (!keysAre(t, TIMING_FIELDS) || Number.isNaN(started) || Number.isNaN(finished)) return d;
    if (typeof t.wall_ms !== "number" || Number.isNaN(t.wall_ms)) return d;

    const values: unknown[] = new Array<unknown>(PROFILE_SIZE);
    values[P.experiment_id] = d.experiment_id;
    values[P.task] = d.task;
    values[P.treatment] = d.treatment;
    values[P.passed] = d.passed;
    values[P.status] = d.status;
    values[P.outcome] = d.outcome;
    values[P.outcome_detail] = d.outcome_detail;
    values[P.checks_passed] = d.checks_passed;
    values[P.checks_failed] = d.checks_failed;
    values[P.failures] = d.failures;
    values[P.rubric] = d.rubric;
    values[P.rubric_lines] = d.rubric_lines;
    values[P.events] =
      es === null
        ? null
        : {
            skills_invoked: es.skills_invoked,
            scripts_used: es.scripts_used,
            profile: es.profile,
            kinds,
          };
    values[P.skill_sources] = d.skill_sources;
    values[P.sample_quality] = d.sample_quality;
    values[P.failure_attribution] = d.failure_attribution;
    values[P.model] = d.model;
    values[P.sandbox] = d.sandbox;
    values[P.agent] = d.agent;
    values[P.hashes] = d.hashes;
    let key = "";
    for (let f = 0; f < PROFILE_SIZE; f++) {
      const field = this.fields[f] as FieldValues;
      const id = field.idOf(values[f]);
      // the value every run with it shares (the first one seen)
      values[f] = field.values[id];
      key += `${id},`;
    }
    let profile = this.profileIds.get(key);
    if (profile === undefined) {
      profile = this.profiles.length;
      this.profiles.push(values);
      this.profileIds.set(key, profile);
    }

    const row = this.size;
    if (row === this.profile.length) this.grow();
    this.size++;
    this.profile[row] = profile;
    const own: unknown[] = [d.model_api, d.interaction, d.judge, d.queue, d.skill_usage];
    for (let f = 0; f < OWN_SIZE; f++)
      this.own[row * OWN_SIZE + f] = (this.ownFields[f] as FieldValues).idOf(own[f]);
    this.rep[row] = d.rep;
    if (es !== null) {
      this.duration[row] = es.duration_seconds ?? NaN;
      this.cost[row] = es.total_cost_usd ?? NaN;
      this.turns[row] = es.num_turns ?? NULL_INT;
      this.toolCalls[row] = es.tool_calls;
      this.tokens[row] = es.total_tokens ?? NULL_INT;
      this.input[row] = es.input_tokens ?? NULL_INT;
      this.output[row] = es.output_tokens ?? NULL_INT;
      this.cacheRead[row] = es.cache_read_input_tokens ?? NULL_INT;
      this.cacheWrite[row] = es.cache_creation_input_tokens ?? NULL_INT;
    }
    this.started[row] = started;
    this.finished[row] = finished;
    this.wall[row] = t.wall_ms;
    if (d.run_id === plannedId(d.task, d.treatment, d.rep, null)) this.idKind[row] = 0;
    else if (d.run_id === plannedId(d.task, d.treatment, d.rep, d.agent.name)) this.idKind[row] = 1;
    else {
      this.idKind[row] = 2;
      this.runIds.set(row, d.run_id);
    }
    return new PackedDigest(this, row);
  }

  /** The value of field `f` of O of a row. */
  ownValue(f: number, row: number): unknown {
    return (this.ownFields[f] as FieldValues).values[this.own[row * OWN_SIZE + f] ?? 0];
  }

  /**
   * Once every row is added: forget how values were numbered (the JSON texts of the values it
   * numbered by text, one per distinct judge block among them, would be held as long as the
   * rows). Rows added later are numbered afresh.
   */
  seal(): void {
    for (const f of [...this.fields, ...this.ownFields]) f.forget();
    this.profileIds.clear();
  }

  private grow(): void {
    const n = this.profile.length * 2;
    this.profile = grown(this.profile, new Uint32Array(n));
    this.own = grown(this.own, new Uint32Array(n * OWN_SIZE));
    this.idKind = grown(this.idKind, new Uint8Array(n));
    this.rep = grown(this.rep, new Int32Array(n));
    this.turns = grown(this.turns, new Int32Array(n));
    this.toolCalls = grown(this.toolCalls, new Int32Array(n));
    this.tokens = grown(this.tokens, new Int32Array(n));
    this.input = grown(this.input, new Int32Array(n));
    this.output = grown(this.output, new Int32Array(n));
    this.cacheRead = grown(this.cacheRead, new Int32Array(n));
    this.cacheWrite = grown(this.cacheWrite, new Int32Array(n));
    this.duration = grown(this.duration, new Float64Array(n));
    this.cost = grown(this.cost, new Float64Array(n));
    this.started = grown(this.started, new Float64Array(n));
    this.finished = grown(this.finished, new Float64Array(n));
    this.wall = grown(this.wall, new Float64Array(n));
  }
}

/** `to` (a larger column) holding `from`'s values first. */
function grown<T extends { set(values: ArrayLike<number>): void }>(
  from: ArrayLike<number>,
  to: T,
): T {
  to.set(from);
  return to;
}

const intAt = (a: Int32Array, row: number): number | null => {
  const v = a[row] ?? NULL_INT;
  return v === NULL_INT ? null : v;
};
const numAt = (a: Float64Array, row: number): number | null => {
  const v = a[row] ?? NaN;
  return Number.isNaN(v) ? null : v;
};

/**
 * One run of a PackedDigests: its getters read the row. The values have the types
 * RunDigestSchema gave them when the digest was made (the store only holds them).
 */
class PackedDigest implements RunDigest {
  // Private fields: not own properties (no enumerable keys of its own beside the getters').
  readonly #s: PackedDigests;
  readonly #row: number;

  constructor(s: PackedDigests, row: number) {
    this.#s = s;
    this.#row = row;
  }

  private p(f: number): unknown {
    return (this.#s.profiles[this.#s.profile[this.#row] ?? 0] as unknown[])[f];
  }

  private o(f: number): unknown {
    return this.#s.ownValue(f, this.#row);
  }

  get run_id(): string {
    const kind = this.#s.idKind[this.#row];
    if (kind === 2) return this.#s.runIds.get(this.#row) ?? "";
    return plannedId(this.task, this.treatment, this.rep, kind === 1 ? this.agent.name : null);
  }
  get experiment_id(): string {
    return this.p(P.experiment_id) as string;
  }
  get task(): string {
    return this.p(P.task) as string;
  }
  get treatment(): string {
    return this.p(P.treatment) as string;
  }
  get rep(): number {
    return this.#s.rep[this.#row] ?? 0;
  }
  get passed(): boolean {
    return this.p(P.passed) as boolean;
  }
  get status(): RunDigest["status"] {
    return this.p(P.status) as RunDigest["status"];
  }
  get outcome(): RunDigest["outcome"] {
    return this.p(P.outcome) as RunDigest["outcome"];
  }
  get outcome_detail(): string {
    return this.p(P.outcome_detail) as string;
  }
  get checks_passed(): RunDigest["checks_passed"] {
    return this.p(P.checks_passed) as RunDigest["checks_passed"];
  }
  get checks_failed(): RunDigest["checks_failed"] {
    return this.p(P.checks_failed) as RunDigest["checks_failed"];
  }
  get failures(): RunDigest["failures"] {
    return this.p(P.failures) as RunDigest["failures"];
  }
  get model_api(): RunDigest["model_api"] {
    return this.o(O.model_api) as RunDigest["model_api"];
  }
  get rubric(): RunDigest["rubric"] {
    return this.p(P.rubric) as RunDigest["rubric"];
  }
  get rubric_lines(): RunDigest["rubric_lines"] {
    return this.p(P.rubric_lines) as RunDigest["rubric_lines"];
  }
  get events_summary(): RunDigest["events_summary"] {
    const shared = this.p(P.events) as EventsShared | null;
    if (shared === null) return null;
    const s = this.#s;
    const row = this.#row;
    // Two literals, not a spread: each read builds one object of one of two shapes.
    if (!shared.kinds)
      return {
        duration_seconds: numAt(s.duration, row),
        num_turns: intAt(s.turns, row),
        tool_calls: s.toolCalls[row] ?? 0,
        total_tokens: intAt(s.tokens, row),
        total_cost_usd: numAt(s.cost, row),
        skills_invoked: shared.skills_invoked,
        scripts_used: shared.scripts_used,
        profile: shared.profile,
      };
    return {
      duration_seconds: numAt(s.duration, row),
      num_turns: intAt(s.turns, row),
      tool_calls: s.toolCalls[row] ?? 0,
      input_tokens: intAt(s.input, row),
      output_tokens: intAt(s.output, row),
      cache_read_input_tokens: intAt(s.cacheRead, row),
      cache_creation_input_tokens: intAt(s.cacheWrite, row),
      total_tokens: intAt(s.tokens, row),
      total_cost_usd: numAt(s.cost, row),
      skills_invoked: shared.skills_invoked,
      scripts_used: shared.scripts_used,
      profile: shared.profile,
    };
  }
  get skill_sources(): RunDigest["skill_sources"] {
    return this.p(P.skill_sources) as RunDigest["skill_sources"];
  }
  get sample_quality(): RunDigest["sample_quality"] {
    return this.p(P.sample_quality) as RunDigest["sample_quality"];
  }
  get failure_attribution(): RunDigest["failure_attribution"] {
    return this.p(P.failure_attribution) as RunDigest["failure_attribution"];
  }
  get interaction(): RunDigest["interaction"] {
    return this.o(O.interaction) as RunDigest["interaction"];
  }
  get judge(): RunDigest["judge"] {
    return this.o(O.judge) as RunDigest["judge"];
  }
  get model(): RunDigest["model"] {
    return this.p(P.model) as RunDigest["model"];
  }
  get sandbox(): RunDigest["sandbox"] {
    return this.p(P.sandbox) as RunDigest["sandbox"];
  }
  get agent(): RunDigest["agent"] {
    return this.p(P.agent) as RunDigest["agent"];
  }
  get hashes(): RunDigest["hashes"] {
    return this.p(P.hashes) as RunDigest["hashes"];
  }
  get timing(): RunDigest["timing"] {
    const row = this.#row;
    return {
      started_at: isoText(this.#s.started[row] ?? 0),
      finished_at: isoText(this.#s.finished[row] ?? 0),
      wall_ms: this.#s.wall[row] ?? 0,
    };
  }
  get queue(): RunDigest["queue"] {
    return this.o(O.queue) as RunDigest["queue"];
  }
  get skill_usage(): RunDigest["skill_usage"] {
    return this.o(O.skill_usage) as RunDigest["skill_usage"];
  }

  /** The plain digest (what JSON.stringify writes): compactDigest's fields in its order. */
  toJSON(): RunDigest {
    const out: Record<string, unknown> = {};
    for (const f of FIELDS) out[f] = this[f];
    const q = this.queue;
    if (q !== undefined) out.queue = q;
    const u = this.skill_usage;
    if (u !== undefined) out.skill_usage = u;
    return out as RunDigest;
  }
}
