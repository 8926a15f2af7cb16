/**
 * The browser code inlined into every HTML page (vanilla ES2017, no template literals so
 * that it can live in this String.raw). It reads the JSON data element `#skillbench-data`,
 * draws the overview (Chart.js) and the run pages, and in served mode fetches run pages
 * from /api/runs/<id> and listens to /api/events for live refresh.
 */
export const CLIENT_JS = String.raw`
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('skillbench-data').textContent);
  var SERVED = DATA.mode === 'served';
  var charts = [];
  var pageCache = {};
  var overviewState = { filter: '', status: 'all', x: 'tokens', y: 'score', scrollY: 0 };
  var main = document.getElementById('main');
  var PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8c6d00', '#7f7f7f'];
  var SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'];
  var SYM = { passed: '\u2713', failed: '\u2717', errored: '\u26A0' };

  function h(tag, attrs, kids) {
    var el = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    if (kids !== undefined && kids !== null) append(el, kids);
    return el;
  }
  function append(el, kids) {
    if (!Array.isArray(kids)) kids = [kids];
    for (var i = 0; i < kids.length; i++) {
      var c = kids[i];
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) append(el, c);
      else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    }
  }
  function num(x) { return typeof x === 'number' && isFinite(x); }
  function f2(x) { return num(x) ? x.toFixed(2) : '\u2014'; }
  var INT_FMT = typeof Intl !== 'undefined' ? new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }) : null;
  function fint(x) { return num(x) ? (INT_FMT ? INT_FMT.format(Math.round(x)) : String(Math.round(x))) : '\u2014'; }
  function usd(x) { return num(x) ? '$' + x.toFixed(4) : '\u2014'; }
  function secs(x) { return num(x) ? x.toFixed(1) + 's' : '\u2014'; }
  function pct(x) { return num(x) ? (100 * x).toFixed(1) + '%' : '\u2014'; }
  function mean(xs) { var v = xs.filter(num); return v.length ? v.reduce(function (a, b) { return a + b; }, 0) / v.length : null; }
  // Theme colours, read once per render before the DOM is rebuilt: reading computed style
  // after building 10,000 nodes forces a full style recalculation on every call.
  var CSS_VARS = ['--fg', '--line', '--fail-fg'];
  var cssCache = null;
  function readCssVars() {
    var cs = getComputedStyle(document.documentElement); cssCache = {};
    CSS_VARS.forEach(function (n) { cssCache[n] = cs.getPropertyValue(n).trim(); });
  }
  function cssVar(n) { if (!cssCache || !(n in cssCache)) readCssVars(); return cssCache[n] || ''; }
  function tIndex(t) { var i = DATA.treatments.indexOf(t); return i < 0 ? 0 : i; }
  function tColor(t) { return PALETTE[tIndex(t) % PALETTE.length]; }
  function tShape(t) { return SHAPES[tIndex(t) % SHAPES.length]; }
  function statusBadge(s) { return h('span', { class: 'badge st-' + s, text: (SYM[s] || '') + ' ' + s }); }
  function runHref(id) { return '#run/' + encodeURIComponent(id); }
  function openRun(id) { overviewState.scrollY = window.scrollY; location.hash = 'run/' + encodeURIComponent(id); }

  // ---- theme ----
  function currentTheme() { return document.documentElement.getAttribute('data-theme') || 'auto'; }
  function setTheme(t) {
    if (t === 'auto') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', t);
    try { localStorage.setItem('skillbench-theme', t); } catch (e) { /* file:// may refuse */ }
    var b = document.getElementById('theme-toggle');
    if (b) b.textContent = 'Theme: ' + t;
    route();
  }
  try { var saved = localStorage.getItem('skillbench-theme'); if (saved === 'dark' || saved === 'light') document.documentElement.setAttribute('data-theme', saved); } catch (e) { /* ignore */ }

  function header() {
    var title = DATA.view === 'comparison' ? 'Skillbench comparison report' : 'Skillbench summary';
    var other = null;
    if (DATA.view === 'comparison') other = h('a', { href: SERVED ? '/' : 'summary.html', text: 'Summary' });
    else if (DATA.comparison) other = h('a', { href: SERVED ? '/comparison' : 'comparison_report.html', text: 'Comparison report' });
    var live = SERVED ? h('span', { id: 'live', class: 'badge st-included', text: DATA.experiment.completed_at ? 'complete' : 'live: run in progress' }) : null;
    return h('header', { class: 'top' }, [
      h('div', null, [h('h1', { text: title }), h('div', { class: 'meta', text: 'Experiment ' + (DATA.experiment.id || '\u2014') + ' \u00b7 ' + DATA.runs.length + ' runs \u00b7 agent claude-code ' + (DATA.experiment.agent_version || '?') + ' \u00b7 model ' + (DATA.experiment.scripted_label ? (DATA.experiment.model || 'scripted') + ' (' + DATA.experiment.scripted_label + ')' : (DATA.experiment.model || 'CLI default')) }),
        DATA.experiment.scripted_label ? h('div', { class: 'note', id: 'scripted-note', text: '\u26A0 ' + DATA.experiment.scripted_label + '. Every run was played by skillbench\u2019s scripted model server.' }) : null]),
      h('nav', { 'aria-label': 'Report navigation' }, [
        h('a', { href: '#', text: 'Overview' }), other, live,
        h('button', { id: 'theme-toggle', type: 'button', 'aria-label': 'Switch colour theme', text: 'Theme: ' + currentTheme(), onclick: function () {
          var order = ['auto', 'dark', 'light']; setTheme(order[(order.indexOf(currentTheme()) + 1) % 3]);
        } })
      ])
    ]);
  }

  // ---- charts ----
  function destroyCharts() { charts.forEach(function (c) { c.destroy(); }); charts = []; }
  function chartDefaults() {
    if (typeof Chart === 'undefined') return false;
    Chart.defaults.color = cssVar('--fg') || '#222';
    Chart.defaults.borderColor = cssVar('--line') || '#ccc';
    Chart.defaults.animation = false;
    Chart.defaults.maintainAspectRatio = false;
    return true;
  }
  var intervalPlugin = {
    id: 'sbIntervals',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx; var y = chart.scales.y;
      chart.data.datasets.forEach(function (ds, i) {
        if (!ds.intervals || !chart.isDatasetVisible(i)) return;
        var meta = chart.getDatasetMeta(i);
        ctx.save(); ctx.strokeStyle = ds.borderColor; ctx.lineWidth = 1.5;
        meta.data.forEach(function (pt, j) {
          var iv = ds.intervals[j]; if (!iv) return;
          var x = pt.x + (ds.dodge || 0), y1 = y.getPixelForValue(iv[0]), y2 = y.getPixelForValue(iv[1]);
          ctx.beginPath(); ctx.moveTo(x, y1); ctx.lineTo(x, y2); ctx.moveTo(x - 4, y1); ctx.lineTo(x + 4, y1); ctx.moveTo(x - 4, y2); ctx.lineTo(x + 4, y2); ctx.stroke();
        });
        ctx.restore();
      });
    }
  };
  var thresholdPlugin = {
    id: 'sbThreshold',
    afterDatasetsDraw: function (chart, args, opts) {
      if (!opts || !num(opts.value)) return;
      var x = chart.scales.x.getPixelForValue(opts.value), area = chart.chartArea, ctx = chart.ctx;
      ctx.save(); ctx.strokeStyle = cssVar('--fail-fg') || '#c00'; ctx.setLineDash([6, 4]); ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
      ctx.setLineDash([]); ctx.fillStyle = ctx.strokeStyle; ctx.font = '12px sans-serif'; ctx.fillText(opts.label || '', x + 4, area.top + 12);
      ctx.restore();
    }
  };
  function figure(id, caption, desc, controls) {
    var canvas = h('canvas', { id: id, role: 'img', 'aria-label': desc });
    return { el: h('figure', null, [h('figcaption', null, [h('span', { text: caption }), controls || null]), h('div', { class: 'chart' }, canvas), h('div', { class: 'meta', text: desc })]), canvas: canvas };
  }
  function addChart(canvas, config) { if (!chartDefaults()) return; charts.push(new Chart(canvas, config)); }

  function passKChart() {
    var pk = DATA.pass_k;
    var labels = pk.ks.map(function (k) { return 'k=' + k; });
    var ds = [];
    var rows = pk.rows.filter(function (r) { return r.metric === 'overall'; });
    rows.forEach(function (row, ri) {
      var boot = pk.bootstrap.filter(function (b) { return b.metric === row.metric && b.treatment === row.treatment; })[0];
      var iv = function (key) { return pk.ks.map(function (k) { var v = boot && boot[key][k]; return v ? [v.low, v.high] : null; }); };
      var c = tColor(row.treatment), dodge = (ri - (rows.length - 1) / 2) * 6;
      ds.push({ label: row.treatment + ' pass@k', data: pk.ks.map(function (k) { return row.pass_at_k[k]; }), borderColor: c, backgroundColor: c, pointStyle: tShape(row.treatment), pointRadius: 5, intervals: iv('pass_at_k'), dodge: 0 });
      ds.push({ label: row.treatment + ' pass^k', data: pk.ks.map(function (k) { return row.pass_hat_k_unbiased[k]; }), borderColor: c, backgroundColor: c, borderDash: [6, 4], pointStyle: tShape(row.treatment), pointRadius: 5, intervals: iv('pass_hat_k_unbiased'), dodge: dodge });
    });
    var f = figure('chart-passk', 'pass@k and pass^k by k', 'Solid lines: pass@k (at least one of k attempts passes). Dashed: pass^k (all k pass, unbiased). Bars: 95% bootstrap intervals over tasks and runs' + (DATA.pending ? ' (still being computed).' : '.'));
    return { el: f.el, draw: function () { addChart(f.canvas, { type: 'line', data: { labels: labels, datasets: ds }, options: { scales: { x: { offset: true }, y: { min: 0, max: 1, title: { display: true, text: 'probability' } } }, plugins: { legend: { labels: { usePointStyle: true } } } }, plugins: [intervalPlugin] }); } };
  }

  function rubricChart() {
    var cmp = DATA.comparison; if (!cmp) return null;
    var dims = cmp.rubric.dimensions.filter(function (d) { return num(d.delta); });
    if (dims.length === 0) return null;
    var tol = cmp.settings.regression_tolerance;
    var labels = dims.map(function (d) { return (d.regression ? '\u25BC ' : '') + d.name + (d.regression ? ' (regression)' : ''); });
    var bad = cssVar('--fail-fg') || '#c00', good = tColor(cmp.roles.candidate);
    var f = figure('chart-rubric', 'Rubric dimension deltas: ' + cmp.roles.candidate + ' \u2212 ' + cmp.roles.baseline, 'Candidate mean minus baseline mean per dimension; the dashed line is \u2212' + tol + ' (below it is a regression, also marked \u25BC in the label).');
    return { el: f.el, draw: function () { addChart(f.canvas, { type: 'bar', data: { labels: labels, datasets: [{ label: 'delta', data: dims.map(function (d) { return d.delta; }), backgroundColor: dims.map(function (d) { return d.regression ? bad : good; }) }] }, options: { indexAxis: 'y', scales: { x: { suggestedMin: -0.2, suggestedMax: 0.2 } }, plugins: { legend: { display: false }, sbThreshold: { value: -tol, label: '\u2212' + tol } } }, plugins: [thresholdPlugin] }); } };
  }

  function frontierChart() {
    var xSel = h('select', { 'aria-label': 'x axis', onchange: function (e) { overviewState.x = e.target.value; route(); } }, [h('option', { value: 'tokens', text: 'tokens per run', selected: overviewState.x === 'tokens' }), h('option', { value: 'cost', text: 'cost per run', selected: overviewState.x === 'cost' })]);
    var ySel = h('select', { 'aria-label': 'y axis', onchange: function (e) { overviewState.y = e.target.value; route(); } }, [h('option', { value: 'score', text: 'weighted score', selected: overviewState.y === 'score' }), h('option', { value: 'pass', text: 'pass rate', selected: overviewState.y === 'pass' })]);
    var xKey = overviewState.x === 'cost' ? 'cost_usd' : 'tokens';
    var ds = [];
    DATA.treatments.forEach(function (t) {
      var runs = DATA.runs.filter(function (r) { return r.treatment === t && r.quality !== 'excluded'; });
      var c = tColor(t);
      var yOf = function (r) { return overviewState.y === 'pass' ? (r.status === 'passed' ? 1 : 0) : r.weighted_score; };
      var pts = runs.filter(function (r) { return num(r[xKey]) && num(yOf(r)); }).map(function (r) { return { x: r[xKey], y: yOf(r), id: r.id }; });
      if (overviewState.y === 'score') ds.push({ label: t + ' runs', data: pts, borderColor: c, backgroundColor: c + '55', pointStyle: tShape(t), pointRadius: 3 });
      var mx = mean(runs.map(function (r) { return r[xKey]; })), my = mean(runs.map(yOf));
      if (num(mx) && num(my)) ds.push({ label: t + ' mean', data: [{ x: mx, y: my }], borderColor: c, backgroundColor: c, pointStyle: tShape(t), pointRadius: 9, borderWidth: 2 });
    });
    var f = figure('chart-frontier', 'Quality vs cost per run', 'Each treatment: its runs (small) and their mean (large); up and to the left is better. Excluded runs are left out.', h('span', { class: 'toolbar' }, [xSel, ySel]));
    return { el: f.el, draw: function () { addChart(f.canvas, { type: 'scatter', data: { datasets: ds }, options: { scales: { x: { title: { display: true, text: xSel.options[xSel.selectedIndex].text } }, y: { min: 0, max: 1.05, title: { display: true, text: ySel.options[ySel.selectedIndex].text } } }, plugins: { legend: { labels: { usePointStyle: true } } } } }); } };
  }

  function qualityChart() {
    var kinds = [['included', '#009E73', 'included'], ['flagged', '#E69F00', 'flagged'], ['excluded', '#7f7f7f', 'excluded']];
    var ds = kinds.map(function (k) { return { label: k[2], data: DATA.data_quality.map(function (q) { return q[k[0]]; }), backgroundColor: k[1] }; });
    var f = figure('chart-quality', 'Sample quality by treatment', 'Runs per treatment by sample quality; excluded runs are infrastructure noise or harness errors and are left out of the statistics.');
    return { el: f.el, draw: function () { addChart(f.canvas, { type: 'bar', data: { labels: DATA.data_quality.map(function (q) { return q.treatment; }), datasets: ds }, options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } } }); } };
  }

  // ---- overview tables ----
  function treatmentTable() {
    var rows = DATA.pass_k.rows.filter(function (r) { return r.metric === 'overall'; });
    return h('table', { class: 'treatments' }, [
      h('thead', null, h('tr', null, ['Treatment', 'Runs', 'Passed c/n', 'Pass rate [95% Wilson]', 'Mean weighted score', 'Mean tokens', 'Mean cost', 'Excluded'].map(function (x, i) { return h('th', { class: i > 0 ? 'num' : null, text: x }); }))),
      h('tbody', null, DATA.treatments.map(function (t) {
        var runs = DATA.runs.filter(function (r) { return r.treatment === t; });
        var row = rows.filter(function (r) { return r.treatment === t; })[0];
        var q = DATA.data_quality.filter(function (x) { return x.treatment === t; })[0];
        return h('tr', null, [h('td', { text: t }), h('td', { class: 'num', text: runs.length }), h('td', { class: 'num', text: row ? row.c + '/' + row.n : '\u2014' }),
          h('td', { class: 'num', text: row && row.wilson95 ? f2(row.pass_rate) + ' [' + f2(row.wilson95.low) + ', ' + f2(row.wilson95.high) + ']' : '\u2014' }),
          h('td', { class: 'num', text: f2(mean(runs.map(function (r) { return r.weighted_score; }))) }), h('td', { class: 'num', text: fint(mean(runs.map(function (r) { return r.tokens; }))) }),
          h('td', { class: 'num', text: usd(mean(runs.map(function (r) { return r.cost_usd; }))) }), h('td', { class: 'num', text: q ? q.excluded : 0 })]);
      }))
    ]);
  }

  function matrixTable() {
    var byCell = {};
    DATA.runs.forEach(function (r) { var k = r.task + '\u0000' + r.treatment; (byCell[k] = byCell[k] || []).push(r); });
    return h('div', { class: 'scroll' }, h('table', { class: 'matrix', id: 'outcome-matrix' }, [
      h('caption', { class: 'sr-only', text: 'Task by treatment outcomes: passed runs over analysis-set runs' }),
      h('thead', null, h('tr', null, [h('th', { text: 'Task' })].concat(DATA.treatments.map(function (t) { return h('th', { text: t }); })))),
      h('tbody', null, DATA.task_outcomes.map(function (row) {
        return h('tr', null, [h('th', { scope: 'row', text: row.task })].concat(DATA.treatments.map(function (t) {
          var c = row.cells[t]; var runs = byCell[row.task + '\u0000' + t] || [];
          if (!c) return h('td', { class: 'cell', 'data-task': row.task, 'data-treatment': t, text: 'no data' });
          var cls = c.c === c.n ? 'ok' : c.c === 0 ? 'bad' : 'mixed';
          var sym = c.c === c.n ? '\u2713' : c.c === 0 ? '\u2717' : '\u25D0';
          return h('td', { class: 'cell ' + cls, 'data-task': row.task, 'data-treatment': t, 'data-cn': c.c + '/' + c.n }, [
            h('span', { class: 'cn', text: sym + ' ' + c.c + '/' + c.n }), c.flip ? h('span', { class: 'flip', title: 'runs disagree: some passed, some failed', text: 'flip' }) : null,
            h('div', { class: 'reps' }, runs.map(function (r) { return h('a', { href: runHref(r.id), title: r.id + ': ' + r.status, text: 'r' + r.rep + ' ' + (SYM[r.status] || '') }); }))
          ]);
        })));
      }))
    ]));
  }

  function runsTable() {
    var input = h('input', { type: 'search', placeholder: 'filter runs (id, task, check)', 'aria-label': 'Filter runs', value: overviewState.filter });
    var sel = h('select', { 'aria-label': 'Status filter' }, ['all', 'passed', 'failed', 'errored'].map(function (s) { return h('option', { value: s, text: s, selected: overviewState.status === s }); }));
    var tbody = h('tbody', { class: 'runs' });
    var count = h('span', { class: 'meta' });
    function fill() {
      overviewState.filter = input.value; overviewState.status = sel.value;
      var q = input.value.toLowerCase();
      var frag = document.createDocumentFragment(); var n = 0;
      DATA.runs.forEach(function (r) {
        if (sel.value !== 'all' && r.status !== sel.value) return;
        if (q && (r.id + ' ' + (r.first_failure || '') + ' ' + r.reason_code).toLowerCase().indexOf(q) < 0) return;
        n++;
        frag.appendChild(h('tr', { class: 'run', tabindex: '0', 'data-run': r.id, 'aria-label': 'Open run ' + r.id + ' (' + r.status + ')' }, [
          h('td', null, h('a', { href: runHref(r.id), tabindex: '-1', text: r.id })), h('td', { text: r.task }), h('td', { text: r.treatment }), h('td', { class: 'num', text: r.rep }),
          h('td', null, statusBadge(r.status)), h('td', { class: 'num', text: r.checks_passed + '/' + (r.checks_passed + r.checks_failed) }),
          h('td', { text: r.first_failure || '' }), h('td', { class: 'num', text: f2(r.weighted_score) }), h('td', { class: 'num', text: fint(r.tokens) }),
          h('td', { class: 'num', text: usd(r.cost_usd) }), h('td', null, h('span', { class: 'badge st-' + r.quality, text: r.quality + (r.quality === 'included' ? '' : ' (' + r.reason_code + ')') }))
        ]));
      });
      tbody.textContent = ''; tbody.appendChild(frag); count.textContent = n + ' of ' + DATA.runs.length + ' runs';
    }
    input.addEventListener('input', fill); sel.addEventListener('change', fill);
    tbody.addEventListener('click', function (e) { var tr = e.target.closest('tr.run'); if (tr) { e.preventDefault(); openRun(tr.getAttribute('data-run')); } });
    tbody.addEventListener('keydown', function (e) {
      var tr = e.target.closest('tr.run'); if (!tr) return;
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openRun(tr.getAttribute('data-run')); }
      else if (e.key === 'ArrowDown' && tr.nextElementSibling) { e.preventDefault(); tr.nextElementSibling.focus(); }
      else if (e.key === 'ArrowUp' && tr.previousElementSibling) { e.preventDefault(); tr.previousElementSibling.focus(); }
    });
    fill();
    return h('div', null, [h('div', { class: 'toolbar' }, [input, sel, count, h('span', { class: 'meta', text: 'Tab to a row, Enter opens it; \u2191/\u2193 move; Esc on a run page returns here.' })]),
      h('div', { class: 'scroll' }, h('table', { id: 'runs-table' }, [h('thead', null, h('tr', null, ['Run', 'Task', 'Treatment', 'Rep', 'Status', 'Checks', 'First failed check', 'Score', 'Tokens', 'Cost', 'Sample'].map(function (x) { return h('th', { text: x }); }))), tbody]))]);
  }

  function comparisonBlock() {
    var cmp = DATA.comparison; if (!cmp) return null;
    var out = [h('h2', { text: 'Verdict: ' + cmp.roles.candidate + ' vs ' + cmp.roles.baseline }), h('div', { class: 'verdict', id: 'verdict', text: cmp.verdict.headline.replace(/\*\*|\x60/g, '') })];
    if (cmp.warnings.length) out.push(h('div', { class: 'note' }, cmp.warnings.map(function (w) { return h('div', { text: '\u26A0 ' + w.message }); })));
    if (DATA.view === 'comparison') {
      var p = cmp.paired;
      out.push(h('p', { text: p.conclusion }));
      out.push(h('dl', { class: 'facts' }, [
        h('dt', { text: 'Pass rate' }), h('dd', { text: cmp.roles.candidate + ' ' + pct(p.candidate_pass_rate) + ' vs ' + cmp.roles.baseline + ' ' + pct(p.baseline_pass_rate) }),
        h('dt', { text: '\u0394 pass rate [95%]' }), h('dd', { text: p.delta_pass_rate ? f2(p.delta_pass_rate.estimate) + ' [' + f2(p.delta_pass_rate.low) + ', ' + f2(p.delta_pass_rate.high) + ']' : '\u2014' }),
        h('dt', { text: 'Sign test' }), h('dd', { text: p.sign_test ? '+' + p.sign_test.pos + ' \u2212' + p.sign_test.neg + ' =' + p.sign_test.ties + ', p=' + p.sign_test.p.toFixed(3) : '\u2014' }),
        h('dt', { text: 'McNemar' }), h('dd', { text: p.mcnemar ? p.mcnemar.candidate_only + ' candidate-only, ' + p.mcnemar.baseline_only + ' baseline-only, p=' + p.mcnemar.p.toFixed(3) : '\u2014' }),
        h('dt', { text: 'Worst case \u0394 (excluded = failed)' }), h('dd', { id: 'worst-case', text: cmp.verdict.worst_case && cmp.verdict.worst_case.delta !== null ? f2(cmp.verdict.worst_case.delta) + (cmp.verdict.worst_case.ci ? ' [' + f2(cmp.verdict.worst_case.ci.low) + ', ' + f2(cmp.verdict.worst_case.ci.high) + ']' : '') : '\u2014' }),
        h('dt', { text: 'Excluded runs' }), h('dd', { text: cmp.verdict.exclusion ? cmp.roles.candidate + ' ' + cmp.verdict.exclusion.candidate.excluded + '/' + cmp.verdict.exclusion.candidate.raw + ', ' + cmp.roles.baseline + ' ' + cmp.verdict.exclusion.baseline.excluded + '/' + cmp.verdict.exclusion.baseline.raw + ' (Fisher p=' + cmp.verdict.exclusion.fisher_p.toFixed(3) + (cmp.verdict.exclusion.imbalanced ? ', imbalanced' : '') + ')' : '\u2014' }),
        h('dt', { text: 'Lift per protocol (Skill fired)' }), h('dd', { text: cmp.lift && cmp.lift.per_protocol.delta !== null ? f2(cmp.lift.per_protocol.delta) + ' over ' + cmp.lift.per_protocol.runs + ' run(s)' : '\u2014' }),
        h('dt', { text: 'Skill invocation rate' }), h('dd', { class: cmp.lift && cmp.lift.silent_bypass ? 'bad' : null, text: cmp.lift ? cmp.roles.candidate + ' ' + pct(cmp.lift.invocation_rate.candidate) + ', ' + cmp.roles.baseline + ' ' + pct(cmp.lift.invocation_rate.baseline) + (cmp.lift.silent_bypass ? ' \u2014 silent bypass: the Skill fired in fewer than half the runs' : '') : '\u2014' }),
        h('dt', { text: 'More runs needed' }), h('dd', { text: cmp.verdict.runs_needed && cmp.verdict.runs_needed.more_per_treatment !== null ? cmp.verdict.runs_needed.more_per_treatment + ' per treatment (\u2248 ' + cmp.verdict.runs_needed.more_per_task + ' per task)' : '\u2014' })
      ]));
      var tr = cmp.treatments;
      out.push(h('h3', { text: 'Rubric dimensions (mean' + (cmp.rubric.distribution ? ' \u00b1 sd' : '') + ')' }));
      out.push(h('div', { class: 'scroll' }, h('table', { id: 'rubric-table' }, [
        h('thead', null, h('tr', null, [h('th', { text: 'Dimension' })].concat(tr.map(function (t) { return h('th', { class: 'num', text: t }); }), [h('th', { class: 'num', text: '\u0394' }), h('th', { text: 'Regression' })]))),
        h('tbody', null, cmp.rubric.dimensions.concat([{ name: 'weighted_score', cells: cmp.rubric.overall.cells, delta: cmp.rubric.overall.delta, regression: false }]).map(function (d) {
          return h('tr', null, [h('td', { text: d.name })].concat(tr.map(function (t) { var c = d.cells[t]; return h('td', { class: 'num', text: c ? f2(c.mean) + (num(c.stdev) ? ' \u00b1 ' + f2(c.stdev) : '') : '/' }); }),
            [h('td', { class: 'num', text: f2(d.delta) }), h('td', { class: d.regression ? 'bad' : null, text: d.regression ? '\u25BC yes' : 'no' })]));
        }))
      ])));
      var jo = cmp.judge_overlay || [];
      if (jo.length) {
        out.push(h('h3', { text: 'LLM-judge overlay (rule vs judge)' }), h('p', { class: 'meta', text: 'The judge never changes rule scores; gap = judge \u2212 rule.' }));
        out.push(h('div', { class: 'scroll' }, h('table', { id: 'judge-overlay' }, [
          h('thead', null, h('tr', null, ['Dimension', 'Treatment', 'Rule', 'Judge', 'Gap', 'Runs judged'].map(function (x) { return h('th', { text: x }); }))),
          h('tbody', null, jo.map(function (row) {
            return h('tr', null, [h('td', { text: row.dimension + (row.rule_dimension && row.rule_dimension !== row.dimension ? ' (rule: ' + row.rule_dimension + ')' : '') }), h('td', { text: row.treatment }),
              h('td', { class: 'num', text: f2(row.rule) }), h('td', { class: 'num', text: f2(row.judge) }), h('td', { class: 'num', text: f2(row.gap) }), h('td', { class: 'num', text: String(row.runs_judged) })]);
          }))])));
      }
    }
    return out;
  }

  function showOverview() {
    destroyCharts();
    main.textContent = '';
    document.title = (DATA.view === 'comparison' ? 'Comparison' : 'Summary') + ' \u2014 ' + (DATA.experiment.id || 'skillbench');
    var parts = [];
    if (DATA.problems.length) parts.push(h('div', { class: 'note', text: DATA.problems.length + ' report(s) could not be read, e.g. ' + DATA.problems[0].file + ': ' + DATA.problems[0].message }));
    if (!SERVED && DATA.run_pages_omitted > 0) parts.push(h('div', { class: 'note', id: 'omitted-note', text: DATA.run_pages_omitted + ' run page(s) are not embedded in this file to keep it small; open the folder with \u201cskillbench view DIR\u201d to see every run.' }));
    if (DATA.pending) parts.push(h('div', { class: 'note', id: 'pending-note', role: 'status', text: 'Computing the comparison and the bootstrap intervals… they appear here when ready.' }));
    if (DATA.view === 'comparison') parts.push(comparisonBlock());
    parts.push(h('h2', { text: 'Treatments' }), treatmentTable());
    if (DATA.view !== 'comparison' && DATA.comparison) parts.push(comparisonBlock());
    if (DATA.pass_k.warning) parts.push(h('div', { class: 'note', text: DATA.pass_k.warning.replace(/[_\x60]/g, '') }));
    var figs = [passKChart(), rubricChart(), frontierChart(), qualityChart()].filter(Boolean);
    parts.push(h('h2', { text: 'Charts' }), h('div', { class: 'grid' }, figs.map(function (f) { return f.el; })));
    // Draw the charts before the large tables are in the document: Chart.js reads computed
    // styles, and each read would otherwise recalculate the styles of thousands of rows.
    append(main, parts); parts = [];
    figs.forEach(function (f) { f.draw(); });
    parts.push(h('h2', { text: 'Task \u00d7 treatment outcomes' }), h('p', { class: 'meta', text: '\u2713 all passed, \u2717 none passed, \u25D0 mixed (with a flip flag); c/n counts analysis-set runs. Links open each run.' }), matrixTable());
    if (DATA.reason_counts.some(function (r) { return r.status !== 'included'; }))
      parts.push(h('h3', { text: 'Flagged and excluded runs by reason' }), h('table', null, [h('thead', null, h('tr', null, ['Treatment', 'Status', 'Reason', 'Runs'].map(function (x) { return h('th', { text: x }); }))),
        h('tbody', null, DATA.reason_counts.filter(function (r) { return r.status !== 'included'; }).map(function (r) { return h('tr', null, [h('td', { text: r.treatment }), h('td', null, h('span', { class: 'badge st-' + r.status, text: r.status })), h('td', { text: r.reason_code }), h('td', { class: 'num', text: r.count })]); }))]));
    parts.push(h('h2', { text: 'Runs' }), runsTable());
    append(main, parts);
    window.scrollTo(0, overviewState.scrollY);
  }

  // ---- run page ----
  function loadRun(id) {
    if (DATA.run_pages[id]) return Promise.resolve(DATA.run_pages[id]);
    if (pageCache[id]) return Promise.resolve(pageCache[id]);
    if (!SERVED) return Promise.resolve(null);
    return fetch('/api/runs/' + encodeURIComponent(id)).then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); }).then(function (p) { pageCache[id] = p; return p; });
  }

  function showRun(id) {
    destroyCharts();
    main.textContent = '';
    document.title = id + ' \u2014 skillbench';
    var back = h('a', { href: '#', id: 'back', text: '\u2190 Overview' });
    main.appendChild(h('p', null, back));
    var holder = h('div', { id: 'run-page', 'data-run': id, text: 'Loading\u2026' });
    main.appendChild(holder);
    back.focus();
    loadRun(id).then(function (p) {
      holder.textContent = '';
      if (!p) {
        var row = DATA.runs.filter(function (r) { return r.id === id; })[0];
        append(holder, [h('h2', { text: id }), row ? h('p', null, [statusBadge(row.status), ' first failed check: ' + (row.first_failure || 'none')]) : null,
          h('div', { class: 'note', text: 'This run\u2019s page is not embedded in this file (size budget). Run \u201cskillbench view DIR\u201d on the results folder to see it.' })]);
        return;
      }
      renderRun(holder, p);
    }).catch(function (e) { holder.textContent = 'Could not load run ' + id + ': ' + e.message; });
  }

  function checkList(items, ok) {
    return h('ul', { class: 'checks' }, items.map(function (c) { return h('li', { class: ok ? 'pass' : 'fail', text: (ok ? '\u2713 ' : '\u2717 ') + c }); }));
  }

  function renderRun(holder, p) {
    var r = p.report, es = r.events_summary;
    var judge = {};
    if (p.judge) p.judge.scores.forEach(function (s) { judge[s.name] = s; });
    var parts = [h('h2', null, [r.run_id + ' ', statusBadge(r.status)]),
      h('dl', { class: 'facts' }, [
        h('dt', { text: 'Task / treatment / rep' }), h('dd', { text: r.task + ' / ' + r.treatment + ' / ' + r.rep }),
        h('dt', { text: 'Outcome' }), h('dd', { text: r.outcome + ' (agent: ' + r.agent_outcome + ')' + (r.outcome_detail ? ' \u2014 ' + r.outcome_detail : '') }),
        h('dt', { text: 'Exit code' }), h('dd', { text: r.exit_code === null ? '\u2014' : String(r.exit_code) }),
        h('dt', { text: 'Turns / tools / duration' }), h('dd', { text: (es ? fint(es.num_turns) + ' / ' + es.tool_calls + ' / ' + secs(es.duration_seconds) : '\u2014') }),
        h('dt', { text: 'Tokens / cost' }), h('dd', { text: es ? fint(es.total_tokens) + ' / ' + usd(es.total_cost_usd) : '\u2014' }),
        h('dt', { text: 'Skills invoked' }), h('dd', { text: es && es.skills_invoked.length ? es.skills_invoked.join(', ') : 'none' }),
        h('dt', { text: 'Model / agent' }), h('dd', { text: (r.model_api || DATA.experiment.scripted_label ? (r.model || 'scripted') + ' (' + (DATA.experiment.scripted_label || 'scripted model (offline): not a measurement of a real model') + ')' : (r.model || 'CLI default')) + ' / claude-code ' + (r.agent.version || '?') })
      ]),
      h('h3', { text: 'Failed checks (' + r.checks_failed.length + ')' }), r.checks_failed.length ? checkList(r.checks_failed, false) : h('p', { class: 'meta', text: 'none' }),
      h('h3', { text: 'Passed checks (' + r.checks_passed.length + ')' }), r.checks_passed.length ? checkList(r.checks_passed, true) : h('p', { class: 'meta', text: 'none' })];
    if (r.rubric) {
      parts.push(h('h3', { text: 'Rubric (' + r.rubric.profile + '): weighted score ' + f2(r.rubric.weighted_score) }));
      var head = ['Dimension', 'Weight', 'Rule score'].concat(p.judge ? ['Judge score'] : [], ['Checks behind the score', 'Reason']);
      parts.push(h('table', { id: 'rubric' }, [h('thead', null, h('tr', null, head.map(function (x) { return h('th', { text: x }); }))),
        h('tbody', null, r.rubric.dimensions.map(function (d) {
          var j = judge[d.name];
          return h('tr', null, [h('td', { text: d.name }), h('td', { class: 'num', text: f2(d.weight) }), h('td', { class: 'num', text: d.score === null ? 'N/A' : f2(d.score) }),
            p.judge ? h('td', { class: 'num', title: j && j.reason ? j.reason : null, text: j ? (j.score === null ? 'N/A' : f2(j.score)) : '\u2014' }) : null,
            h('td', null, d.checks.length ? checkList(d.checks.map(function (c) { return c.name; }).filter(function (_, i) { return d.checks[i].passed; }), true) : null,
              d.checks.length ? checkList(d.checks.filter(function (c) { return !c.passed; }).map(function (c) { return c.name; }), false) : h('span', { class: 'meta', text: '\u2014' })),
            h('td', { text: d.reason })]);
        }))]));
    }
    if (p.judge) {
      var ruleNames = r.rubric ? r.rubric.dimensions.map(function (d) { return d.name; }) : [];
      var extra = p.judge.scores.filter(function (s) { return ruleNames.indexOf(s.name) < 0; });
      if (extra.length) parts.push(h('h3', { text: 'LLM judge' + (p.judge.model ? ' (' + p.judge.model + ')' : '') + ': overlay, rule scores unchanged' }),
        h('table', { id: 'judge-scores' }, [h('thead', null, h('tr', null, ['Judge dimension', 'Score', 'Reason'].map(function (x) { return h('th', { text: x }); }))),
          h('tbody', null, extra.map(function (s) { return h('tr', null, [h('td', { text: s.name }), h('td', { class: 'num', text: s.score === null ? 'N/A' : f2(s.score) }), h('td', { text: s.reason || '' })]); }))]));
    }
    var sq = r.sample_quality;
    parts.push(h('h3', { text: 'Sample quality' }), h('p', null, [h('span', { class: 'badge st-' + sq.status, text: sq.status }), ' ' + sq.reason_code + ' (confidence ' + sq.confidence + '): ' + sq.reason]));
    if (sq.evidence.length) parts.push(h('ul', null, sq.evidence.map(function (e) { return h('li', { text: e }); })));
    if (r.failure_attribution.length) parts.push(h('h3', { text: 'Failure attribution' }), h('ul', null, r.failure_attribution.map(function (a) { return h('li', { text: '[' + a.bucket + '] ' + a.check + ': ' + a.reason }); })));
    parts.push(h('h2', { text: 'Transcript' }), timeline(p.timeline));
    if (p.stderr_tail) parts.push(h('details', null, [h('summary', { text: 'stderr (tail)' }), h('pre', { text: p.stderr_tail })]));
    parts.push(h('h2', { text: 'Files the agent left (' + p.files.length + (p.files_truncated ? '+' : '') + ')' }), filesView(p));
    append(holder, parts);
  }

  function toolView(t) {
    var cls = 'tool' + (t.is_error ? ' error' : '') + (t.skill ? ' skill' : '');
    var d = h('details', { class: cls }, h('summary', null, [t.is_error ? h('span', { class: 'badge tag-error', text: '\u2717 error' }) : null, t.skill ? h('span', { class: 'badge tag-skill', text: '\u2605 skill ' + t.skill }) : null,
      ' ' + t.name + (t.label ? ' \u2014 ' + t.label : '')]));
    var filled = false;
    d.addEventListener('toggle', function () {
      if (!d.open || filled) return; filled = true;
      append(d, [h('div', { class: 'meta', style: 'margin-left:8px', text: 'Input' }), h('pre', { class: 'tool-input', text: t.input }), h('div', { class: 'meta', style: 'margin-left:8px', text: t.is_error ? 'Output (error)' : 'Output' }), h('pre', { class: 'tool-output', text: t.output === null ? '(no result recorded)' : t.output })]);
    });
    return d;
  }

  function timeline(tl) {
    if (!tl.turns.length) return h('p', { class: 'meta', text: 'No transcript recorded.' });
    var box = h('div', { id: 'timeline' }, h('p', { class: 'meta', text: tl.turns.length + ' turn(s), ' + tl.tool_calls + ' tool call(s), ' + tl.errors + ' error(s); from ' + tl.source + (tl.malformed_lines ? '; ' + tl.malformed_lines + ' malformed line(s)' : '') }));
    tl.turns.forEach(function (turn) {
      var res = turn.result;
      var sec = h('section', { class: 'turn', 'aria-label': 'Turn ' + turn.index }, h('h3', null, ['Turn ' + turn.index,
        res ? h('span', { class: 'badge ' + (res.is_error ? 'bad' : 'ok'), text: (res.is_error ? '\u2717 ' : '\u2713 ') + (res.subtype || 'result') }) : h('span', { class: 'badge mixed', text: 'no result' }),
        res ? h('span', { class: 'usage', text: 'tokens ' + (res.tokens ? fint(res.tokens.total) + ' (in ' + fint(res.tokens.input) + ', out ' + fint(res.tokens.output) + ', cache ' + fint(res.tokens.cache_read + res.tokens.cache_creation) + ')' : '\u2014') + ' \u00b7 cost ' + usd(res.cost_usd) + ' \u00b7 ' + (num(res.duration_ms) ? (res.duration_ms / 1000).toFixed(1) + 's' : '\u2014') }) : null]));
      if (turn.prompt) sec.appendChild(h('div', { class: 'prompt' }, [h('strong', { text: (turn.index === 1 ? 'Prompt' : 'Simulated reply') + (turn.prompt_source ? ' (' + turn.prompt_source + ')' : '') + ': ' }), turn.prompt]));
      turn.steps.forEach(function (s) {
        if (s.kind === 'assistant') {
          s.text.forEach(function (t) { sec.appendChild(h('div', { class: 'assistant-text' }, [h('strong', { text: 'Assistant: ' }), t])); });
          s.tools.forEach(function (t) { sec.appendChild(toolView(t)); });
          if (s.usage) sec.appendChild(h('div', { class: 'usage', text: 'step tokens: in ' + fint(s.usage.input) + ', out ' + fint(s.usage.output) + (s.usage.cache_read ? ', cache read ' + fint(s.usage.cache_read) : '') }));
        } else if (s.kind === 'user') {
          var long = s.text.length > 400;
          sec.appendChild(long ? h('details', { class: 'user-text' }, [h('summary', { text: (s.synthetic ? 'Injected text' : 'User text') + ' (' + s.text.length + ' chars)' }), s.text]) : h('div', { class: 'user-text', text: (s.synthetic ? 'Injected: ' : 'User: ') + s.text }));
        } else {
          sec.appendChild(h('div', { class: 'notice' + (s.error ? ' error' : ''), role: s.error ? 'note' : null, text: (s.error ? '\u26A0 ' : '') + s.text }));
        }
      });
      if (res && res.text) sec.appendChild(h('div', { class: 'assistant-text' }, [h('strong', { text: 'Result: ' }), res.text]));
      box.appendChild(sec);
    });
    return box;
  }

  function filesView(p) {
    if (!p.files.length) return h('p', { class: 'meta', text: 'No files (or the workspace was not kept).' });
    var viewer = h('div', { id: 'file-view' });
    var list = h('ul', { class: 'files' }, p.files.map(function (f) {
      return h('li', null, h('button', { type: 'button', 'data-path': f.path, onclick: function () {
        viewer.textContent = '';
        var show = function (text) { append(viewer, [h('h3', { text: f.path }), h('pre', { text: text })]); };
        if (typeof f.content === 'string') show(f.content);
        else if (SERVED) fetch('/api/runs/' + encodeURIComponent(p.run_id) + '/files/' + f.path.split('/').map(encodeURIComponent).join('/')).then(function (r) { return r.text(); }).then(show, function (e) { show('could not load: ' + e.message); });
        else show('(not embedded: binary or larger than the embedding limit; use skillbench view)');
      } }, f.path + ' (' + fint(f.size) + ' B)'));
    }));
    return h('div', null, [list, viewer]);
  }

  function route() {
    readCssVars();
    var m = /^#run\/(.+)$/.exec(location.hash);
    if (m) showRun(decodeURIComponent(m[1])); else showOverview();
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && /^#run\//.test(location.hash)) { location.hash = ''; }
  });
  window.addEventListener('hashchange', route);
  function renderHeader() {
    var old = document.querySelector('header.top');
    var el = header();
    if (old) old.replaceWith(el); else document.body.insertBefore(el, main);
  }
  // New overview data (the complete data after a quick first view, or a live refresh).
  function applyData(d) {
    DATA = d; pageCache = {};
    renderHeader();
    readCssVars();
    if (!/^#run\//.test(location.hash)) { overviewState.scrollY = window.scrollY; showOverview(); }
    if (!DATA.pending) document.documentElement.setAttribute('data-complete', '1');
  }
  function fetchSummary() {
    return fetch('/api/summary?view=' + DATA.view).then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); });
  }
  renderHeader();
  route();
  document.documentElement.setAttribute('data-ready', '1');
  if (!DATA.pending) document.documentElement.setAttribute('data-complete', '1');
  // The server sent the page before the comparison and bootstrap intervals were computed: fetch them.
  else if (SERVED) fetchSummary().then(applyData, function (e) {
    var note = document.getElementById('pending-note'); if (note) note.textContent = 'Could not load the comparison: ' + e.message + '. Reload the page to try again.';
  });

  if (SERVED && typeof EventSource !== 'undefined') {
    var es = new EventSource('/api/events');
    es.addEventListener('change', function () {
      fetchSummary().then(function (d) {
        applyData(d);
        document.documentElement.setAttribute('data-refreshed', String(Date.now()));
      });
    });
  }
})();
`;
