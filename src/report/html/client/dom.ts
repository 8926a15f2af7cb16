/** DOM building and number formatting shared by the client's views. */

type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined | EventListener;

/** An element with attributes (`class`, `text`, `on<event>` and plain attributes) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, AttrValue> | null,
  kids?: Child,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs)
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = String(v);
      else if (k === "text") el.textContent = String(v);
      else if (typeof v === "function") el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  if (kids !== undefined && kids !== null) append(el, kids);
  return el;
}

export function append(el: Node, kids: Child): void {
  if (kids === null || kids === undefined || kids === false) return;
  if (Array.isArray(kids)) {
    for (const c of kids) append(el, c);
    return;
  }
  el.appendChild(typeof kids === "object" ? kids : document.createTextNode(String(kids)));
}

export function num(x: unknown): x is number {
  return typeof x === "number" && isFinite(x);
}
export const DASH = "\u2014";
export function f2(x: number | null | undefined): string {
  return num(x) ? x.toFixed(2) : DASH;
}
const INT_FMT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
export function fint(x: number | null | undefined): string {
  return num(x) ? INT_FMT.format(Math.round(x)) : DASH;
}
export function usd(x: number | null | undefined): string {
  return num(x) ? `$${x.toFixed(4)}` : DASH;
}
export function secs(x: number | null | undefined): string {
  return num(x) ? `${x.toFixed(1)}s` : DASH;
}
export function pct(x: number | null | undefined): string {
  return num(x) ? `${(100 * x).toFixed(1)}%` : DASH;
}
export function mean(xs: ReadonlyArray<number | null | undefined>): number | null {
  let sum = 0,
    n = 0;
  for (const x of xs)
    if (num(x)) {
      sum += x;
      n += 1;
    }
  return n ? sum / n : null;
}

// Theme colours, read once per render before the DOM is rebuilt: reading computed style
// after building thousands of nodes forces a full style recalculation on every call.
const CSS_VARS = ["--fg", "--line", "--fail-fg"] as const;
type CssVar = (typeof CSS_VARS)[number];
let cssCache: Partial<Record<CssVar, string>> | null = null;
export function readCssVars(): void {
  const cs = getComputedStyle(document.documentElement);
  const next: Partial<Record<CssVar, string>> = {};
  for (const n of CSS_VARS) next[n] = cs.getPropertyValue(n).trim();
  cssCache = next;
}
export function cssVar(n: CssVar): string {
  if (!cssCache) readCssVars();
  return cssCache?.[n] ?? "";
}

export const SYM: Record<string, string> = {
  passed: "\u2713",
  failed: "\u2717",
  errored: "\u26A0",
};

export function statusBadge(s: string): HTMLSpanElement {
  return h("span", { class: `badge st-${s}`, text: `${SYM[s] ?? ""} ${s}` });
}

export function tableHead(cols: string[], numFrom = Infinity): HTMLTableSectionElement {
  return h(
    "thead",
    null,
    h(
      "tr",
      null,
      cols.map((x, i) => h("th", { class: i >= numFrom ? "num" : null, text: x })),
    ),
  );
}
