/** The stylesheet inlined into every HTML page (light and dark themes). */
export const CLIENT_CSS = String.raw`
:root{--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--accent:#0969da;
--pass-bg:#dafbe1;--pass-fg:#116329;--fail-bg:#ffebe9;--fail-fg:#a40e26;--warn-bg:#fff8c5;--warn-fg:#7d4e00;
--err-bg:#ffebe9;--skill-bg:#ddf4ff;--skill-fg:#0a3069;--focus:#bf3989;color-scheme:light}
@media (prefers-color-scheme: dark){:root:not([data-theme=light]){--bg:#0d1117;--fg:#e6edf3;--muted:#9aa5b1;--line:#30363d;--panel:#161b22;--accent:#58a6ff;
--pass-bg:#12361f;--pass-fg:#7ee2a0;--fail-bg:#4a1418;--fail-fg:#ffa198;--warn-bg:#3d2e00;--warn-fg:#f2cc60;--err-bg:#3b1216;--skill-bg:#0c2d4a;--skill-fg:#a5d6ff;--focus:#ff7bd5;color-scheme:dark}}
:root[data-theme=dark]{--bg:#0d1117;--fg:#e6edf3;--muted:#9aa5b1;--line:#30363d;--panel:#161b22;--accent:#58a6ff;
--pass-bg:#12361f;--pass-fg:#7ee2a0;--fail-bg:#4a1418;--fail-fg:#ffa198;--warn-bg:#3d2e00;--warn-fg:#f2cc60;--err-bg:#3b1216;--skill-bg:#0c2d4a;--skill-fg:#a5d6ff;--focus:#ff7bd5;color-scheme:dark}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header.top{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between;padding:10px 20px;border-bottom:1px solid var(--line);background:var(--panel)}
header.top h1{font-size:18px;margin:0}
header.top nav{display:flex;gap:12px;align-items:center}
main{max-width:1400px;margin:0 auto;padding:12px 20px 60px}
a{color:var(--accent)}
button,select,input{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:3px 8px}
button{cursor:pointer}
:focus-visible{outline:3px solid var(--focus);outline-offset:1px}
h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:14px;margin:14px 0 6px}
.meta{color:var(--muted);font-size:13px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:16px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:10px;background:var(--panel);min-width:0}
figure .chart{position:relative;height:280px}
figcaption{font-weight:600;margin-bottom:6px;display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--panel)}
.scroll th{position:sticky;top:0;z-index:1}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow:auto;max-height:70vh;border:1px solid var(--line);border-radius:8px}
tr.run{cursor:pointer}
tr.run:hover,tr.run:focus{background:var(--panel)}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;border:1px solid transparent;white-space:nowrap}
.st-passed,.ok{background:var(--pass-bg);color:var(--pass-fg)}
.st-failed,.bad{background:var(--fail-bg);color:var(--fail-fg)}
.st-errored,.mixed,.st-flagged{background:var(--warn-bg);color:var(--warn-fg)}
.st-excluded{background:var(--panel);color:var(--muted);border-color:var(--line)}
.st-included{background:var(--panel);color:var(--fg);border-color:var(--line)}
table.matrix td.cell{text-align:center;min-width:110px}
table.matrix td.cell .reps{display:flex;gap:4px;justify-content:center;flex-wrap:wrap;margin-top:2px;font-size:12px}
.flip{font-size:11px;font-weight:700;border:1px dashed currentColor;border-radius:4px;padding:0 3px;margin-left:4px}
.checks li.fail{color:var(--fail-fg)}
.checks li.pass{color:var(--pass-fg)}
ul.checks{padding-left:18px;margin:4px 0}
.turn{border:1px solid var(--line);border-radius:8px;margin:12px 0;padding:8px 12px}
.turn>h3{margin-top:4px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.prompt{border-left:4px solid var(--accent);background:var(--panel);padding:6px 10px;margin:6px 0;white-space:pre-wrap}
.assistant-text{white-space:pre-wrap;margin:6px 0;padding:4px 10px;border-left:4px solid var(--line)}
.user-text{white-space:pre-wrap;margin:6px 0;padding:4px 10px;border-left:4px dotted var(--line);color:var(--muted)}
details.tool{border:1px solid var(--line);border-radius:6px;margin:4px 0 4px 10px;background:var(--panel)}
details.tool>summary{cursor:pointer;padding:3px 8px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
details.tool.error{border-color:var(--fail-fg);background:var(--err-bg)}
details.tool.skill{border-color:var(--skill-fg)}
.tag-skill{background:var(--skill-bg);color:var(--skill-fg)}
.tag-error{background:var(--fail-bg);color:var(--fail-fg)}
.notice.error{background:var(--err-bg);color:var(--fail-fg);padding:4px 10px;border-radius:6px;margin:4px 0}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 8px 8px;padding:6px 8px;background:var(--bg);border:1px solid var(--line);border-radius:6px;max-height:480px;overflow:auto;font-size:12.5px}
.usage{color:var(--muted);font-size:12px;margin-left:10px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
.toolbar{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:6px 0}
.note{background:var(--warn-bg);color:var(--warn-fg);padding:6px 10px;border-radius:6px;margin:8px 0}
.verdict{font-size:15px;font-weight:600;padding:8px 12px;border-radius:8px;border:1px solid var(--line);background:var(--panel);white-space:pre-wrap}
.files li{margin:2px 0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
#runs-table{table-layout:fixed}
tbody.runs tr.run td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
tbody.runs tr.spacer td{padding:0;border:0}
th button.sort{border:0;background:none;padding:0;font-weight:600;text-align:inherit;width:100%}
th[aria-sort=ascending] button.sort::after{content:" \25B2"}
th[aria-sort=descending] button.sort::after{content:" \25BC"}
.reps button.more{font-size:12px;padding:0 4px}
`;
