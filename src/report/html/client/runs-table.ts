/**
 * The overview's run table, virtualised: only the rows in (and just around) the visible part of
 * its scroll box are in the document, so 10,000 runs cost as little to draw as 30. Filtering and
 * sorting work on an index array over the run rows; the spacer rows above and below keep the
 * scroll bar true to the whole list.
 */
import type { RunRow } from "../wire.js";
import { f2, fint, h, statusBadge, usd } from "./dom.js";
import { openRun, runHref, runs, state, type OverviewState } from "./state.js";

/** Rows drawn above and below the visible ones. */
const OVERSCAN = 12;
/** A row's height until the first drawn row is measured. */
const DEFAULT_ROW_HEIGHT = 29;

interface Column {
  title: string;
  /** share of the table's width (the layout is fixed, so columns keep their width while rows scroll) */
  width: string;
  num?: boolean;
  /** the value sorted on */
  key: (r: RunRow) => string | number | null;
  cell: (r: RunRow) => HTMLTableCellElement;
}

const COLUMNS: Column[] = [
  {
    title: "Run",
    width: "21%",
    key: (r) => r.id,
    cell: (r) => h("td", null, h("a", { href: runHref(r.id), tabindex: "-1", text: r.id })),
  },
  { title: "Task", width: "11%", key: (r) => r.task, cell: (r) => h("td", { text: r.task }) },
  {
    title: "Treatment",
    width: "10%",
    key: (r) => r.treatment,
    cell: (r) => h("td", { text: r.treatment }),
  },
  {
    title: "Rep",
    width: "4%",
    num: true,
    key: (r) => r.rep,
    cell: (r) => h("td", { class: "num", text: r.rep }),
  },
  {
    title: "Status",
    width: "8%",
    key: (r) => r.status,
    cell: (r) => h("td", null, statusBadge(r.status)),
  },
  {
    title: "Checks",
    width: "6%",
    num: true,
    key: (r) => r.checks_passed / Math.max(1, r.checks_passed + r.checks_failed),
    cell: (r) =>
      h("td", { class: "num", text: `${r.checks_passed}/${r.checks_passed + r.checks_failed}` }),
  },
  {
    title: "First failed check",
    width: "12%",
    key: (r) => r.first_failure,
    cell: (r) => h("td", { text: r.first_failure ?? "", title: r.first_failure }),
  },
  {
    title: "Score",
    width: "6%",
    num: true,
    key: (r) => r.weighted_score,
    cell: (r) => h("td", { class: "num", text: f2(r.weighted_score) }),
  },
  {
    title: "Tokens",
    width: "7%",
    num: true,
    key: (r) => r.tokens,
    cell: (r) => h("td", { class: "num", text: fint(r.tokens) }),
  },
  {
    title: "Cost",
    width: "7%",
    num: true,
    key: (r) => r.cost_usd,
    cell: (r) => h("td", { class: "num", text: usd(r.cost_usd) }),
  },
  {
    title: "Sample",
    width: "8%",
    key: (r) => `${r.quality} ${r.reason_code}`,
    cell: (r) =>
      h(
        "td",
        null,
        h("span", {
          class: `badge st-${r.quality}`,
          text: r.quality + (r.quality === "included" ? "" : ` (${r.reason_code})`),
        }),
      ),
  },
];

/** Does the row match every whitespace-separated term of the filter? */
function matches(r: RunRow, terms: string[]): boolean {
  if (terms.length === 0) return true;
  const hay =
    `${r.id} ${r.task} ${r.treatment} ${r.first_failure ?? ""} ${r.reason_code}`.toLowerCase();
  return terms.every((t) => hay.includes(t));
}

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // missing values last
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

/** The indices of the rows to show, filtered and sorted. */
function visibleOrder(
  all: RunRow[],
  ov: Pick<OverviewState, "filter" | "status" | "sort">,
): number[] {
  const terms = ov.filter.toLowerCase().split(/\s+/).filter(Boolean);
  const idx: number[] = [];
  all.forEach((r, i) => {
    if ((ov.status === "all" || r.status === ov.status) && matches(r, terms)) idx.push(i);
  });
  const col = ov.sort ? COLUMNS[ov.sort.column] : undefined;
  if (ov.sort && col) {
    const dir = ov.sort.desc ? -1 : 1;
    const keys = all.map(col.key);
    idx.sort((a, b) => {
      const ka = keys[a] ?? null;
      const kb = keys[b] ?? null;
      // missing values stay last in both directions
      if (ka === null || kb === null) return compare(ka, kb);
      return dir * compare(ka, kb) || a - b;
    });
  }
  return idx;
}

export function runsTable(): HTMLElement {
  const ov = state.overview;
  const all = runs();
  const input = h("input", {
    type: "search",
    id: "runs-filter",
    placeholder: "filter runs (id, task, treatment, check)",
    "aria-label": "Filter runs",
    value: ov.filter,
  });
  const sel = h(
    "select",
    { "aria-label": "Status filter", id: "runs-status" },
    (["all", "passed", "failed", "errored"] as const).map((s) =>
      h("option", { value: s, text: s, selected: ov.status === s }),
    ),
  );
  const count = h("span", { class: "meta", id: "runs-count", role: "status" });
  const headCells = COLUMNS.map((c, i) => {
    const th = h("th", { class: c.num ? "num" : null, scope: "col" });
    const b = h("button", { type: "button", class: "sort", text: c.title, "data-column": i });
    b.addEventListener("click", () => {
      ov.sort =
        ov.sort?.column === i ? { column: i, desc: !ov.sort.desc } : { column: i, desc: false };
      refilter();
    });
    th.appendChild(b);
    return th;
  });
  const tbody = h("tbody", { class: "runs" });
  const table = h("table", { id: "runs-table", "aria-rowcount": all.length + 1 }, [
    h(
      "colgroup",
      null,
      COLUMNS.map((c) => h("col", { style: `width:${c.width}` })),
    ),
    h("thead", null, h("tr", null, headCells)),
    tbody,
  ]);
  const box = h("div", { class: "scroll runs-scroll" }, table);

  let order: number[] = [];
  let rowH = DEFAULT_ROW_HEIGHT;
  let drawn: [number, number] = [-1, -1];

  function spacer(height: number): HTMLTableRowElement {
    return h(
      "tr",
      { class: "spacer", "aria-hidden": "true" },
      h("td", { colspan: COLUMNS.length, style: `height:${height}px` }),
    );
  }

  function rowEl(pos: number): HTMLTableRowElement | null {
    const r = all[order[pos] ?? -1];
    if (!r) return null;
    return h(
      "tr",
      {
        class: "run",
        tabindex: "0",
        "data-run": r.id,
        "data-pos": pos,
        "aria-rowindex": pos + 2,
        "aria-label": `Open run ${r.id} (${r.status})`,
      },
      COLUMNS.map((c) => c.cell(r)),
    );
  }

  /** Draw the rows of the visible window (when it moved, or `force`). */
  function draw(force = false): void {
    const viewH = box.clientHeight || window.innerHeight;
    const first = Math.max(0, Math.floor(box.scrollTop / rowH) - OVERSCAN);
    const last = Math.min(order.length, Math.ceil((box.scrollTop + viewH) / rowH) + OVERSCAN);
    if (!force && first === drawn[0] && last === drawn[1]) return;
    const focusedPos =
      document.activeElement instanceof HTMLElement && tbody.contains(document.activeElement)
        ? document.activeElement.closest("tr.run")?.getAttribute("data-pos")
        : null;
    drawn = [first, last];
    const frag = document.createDocumentFragment();
    if (first > 0) frag.appendChild(spacer(first * rowH));
    for (let pos = first; pos < last; pos++) {
      const tr = rowEl(pos);
      if (tr) frag.appendChild(tr);
    }
    if (last < order.length) frag.appendChild(spacer((order.length - last) * rowH));
    tbody.textContent = "";
    tbody.appendChild(frag);
    if (focusedPos !== null && focusedPos !== undefined) focusRow(Number(focusedPos), false);
    // Measure a real row once: spacer heights then match the rows they stand for.
    const sample = tbody.querySelector("tr.run");
    const measured = sample ? sample.getBoundingClientRect().height : 0;
    if (measured > 0 && Math.abs(measured - rowH) > 0.5) {
      rowH = measured;
      draw(true);
    }
  }

  function focusRow(pos: number, scroll = true): void {
    if (pos < 0 || pos >= order.length) return;
    if (scroll) {
      const top = pos * rowH;
      const headH = table.tHead?.getBoundingClientRect().height ?? 0;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + rowH > box.scrollTop + box.clientHeight - headH)
        box.scrollTop = top + rowH - box.clientHeight + headH;
      draw();
    }
    const tr = tbody.querySelector<HTMLElement>(`tr.run[data-pos="${pos}"]`);
    tr?.focus({ preventScroll: !scroll });
  }

  function refilter(): void {
    ov.filter = input.value;
    ov.status =
      sel.value === "passed" || sel.value === "failed" || sel.value === "errored"
        ? sel.value
        : "all";
    order = visibleOrder(all, ov);
    count.textContent = `${order.length} of ${all.length} runs`;
    headCells.forEach((th, i) => {
      if (ov.sort?.column === i)
        th.setAttribute("aria-sort", ov.sort.desc ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
    box.scrollTop = 0;
    draw(true);
  }

  let pending = false;
  box.addEventListener("scroll", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw();
    });
  });
  input.addEventListener("input", refilter);
  sel.addEventListener("change", refilter);
  tbody.addEventListener("click", (e) => {
    const tr = e.target instanceof Element ? e.target.closest("tr.run") : null;
    const id = tr?.getAttribute("data-run");
    if (id) {
      e.preventDefault();
      openRun(id);
    }
  });
  tbody.addEventListener("keydown", (e) => {
    const tr = e.target instanceof Element ? e.target.closest("tr.run") : null;
    if (!tr) return;
    const pos = Number(tr.getAttribute("data-pos"));
    const id = tr.getAttribute("data-run");
    if ((e.key === "Enter" || e.key === " ") && id) {
      e.preventDefault();
      openRun(id);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      focusRow(pos + (e.key === "ArrowDown" ? 1 : -1));
    }
  });

  order = visibleOrder(all, ov);
  count.textContent = `${order.length} of ${all.length} runs`;
  // The box has its size only once it is in the document: draw a first window now (so the
  // rows exist at once) and again on the next frame, sized to the box.
  draw(true);
  requestAnimationFrame(() => draw());

  return h("div", null, [
    h("div", { class: "toolbar" }, [
      input,
      sel,
      count,
      h("span", {
        class: "meta",
        text: "Tab to a row, Enter opens it; \u2191/\u2193 move; Esc on a run page returns here. Click a column title to sort.",
      }),
    ]),
    box,
  ]);
}
