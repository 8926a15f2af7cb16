/**
 * ISO 8601 times (`toISOString`'s form, `2026-12-06T22:12:04.025Z`) to milliseconds and back,
 * for the packed digests (store/packed-digests.ts), which keep a run's start and end as numbers
 * and give the text back at every read. Date.parse and toISOString cost ~1 µs each, and a
 * reading of 10,000 runs made 40,000 of them; the runs of one experiment mostly share a UTC
 * day, so the day's part is checked once (by the Date functions themselves) and only the time of
 * day is done here. Anything off the fast path goes through the Date functions, so the results
 * are theirs.
 */

const DAY_MS = 86_400_000;

/** The day last seen: its `YYYY-MM-DD` text and the milliseconds of its UTC midnight. */
let day = { text: "", ms: NaN };

/** The day of `text` (`YYYY-MM-DD`), when toISOString writes that day so: else NaN. */
function dayMs(text: string): number {
  if (text === day.text) return day.ms;
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== text) return NaN;
  day = { text, ms };
  return ms;
}

/** The value of the two (three) digits at `at`, or -1 when one is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The milliseconds of `s` when `new Date(ms).toISOString()` gives `s` back exactly; else NaN
 * (another form of time, or no time at all).
 */
export function isoMillis(s: unknown): number {
  if (typeof s !== "string") return NaN;
  if (
    s.length === 24 &&
    s[10] === "T" &&
    s[13] === ":" &&
    s[16] === ":" &&
    s[19] === "." &&
    s[23] === "Z"
  ) {
    const h = digits(s, 11, 2);
    const m = digits(s, 14, 2);
    const sec = digits(s, 17, 2);
    const milli = digits(s, 20, 3);
    if (h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60 && milli >= 0) {
      const d = dayMs(s.slice(0, 10));
      if (!Number.isNaN(d)) return d + ((h * 60 + m) * 60 + sec) * 1000 + milli;
    }
  }
  const ms = Date.parse(s);
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : NaN;
}

const pad2 = (v: number): string => (v < 10 ? `0${v}` : `${v}`);
const pad3 = (v: number): string => (v < 10 ? `00${v}` : v < 100 ? `0${v}` : `${v}`);

/** `new Date(ms).toISOString()` (ms a whole number of milliseconds that isoMillis gave). */
export function isoText(ms: number): string {
  if (Number.isInteger(ms) && ms >= day.ms && ms < day.ms + DAY_MS) {
    let t = ms - day.ms;
    const milli = t % 1000;
    t = (t - milli) / 1000;
    const sec = t % 60;
    t = (t - sec) / 60;
    const m = t % 60;
    const h = (t - m) / 60;
    return `${day.text}T${pad2(h)}:${pad2(m)}:${pad2(sec)}.${pad3(milli)}Z`;
  }
  const text = new Date(ms).toISOString();
  // the day of this time, for the next ones (a day toISOString writes as 10 characters)
  if (text.length === 24) dayMs(text.slice(0, 10));
  return text;
}
