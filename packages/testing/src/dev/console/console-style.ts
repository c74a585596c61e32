// The console page's style: system fonts and colours only (no asset to fetch, so it works offline), a single
// column at phone width (390 px) and two from 1000 px, visible focus, contrast of at least 4.5:1.

/** @internal */
export const CONSOLE_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #545d68; --line: #d0d7de;
  --accent: #0b57d0; --ok: #116329; --bad: #a40e26; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9ba5b0; --line: #30363d;
  --accent: #79b8ff; --ok: #56d364; --bad: #ff7b72; --panel: #161b22; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
header { padding: 12px 16px; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.25rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 0 0 8px; }
main { display: grid; gap: 16px; padding: 16px; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 1000px) { main { grid-template-columns: minmax(0, 5fr) minmax(0, 7fr); }
  #transcript-section { grid-column: 2; grid-row: 1 / span 3; } }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px;
  min-width: 0; }
label { display: block; font-weight: 600; margin: 8px 0 2px; overflow-wrap: anywhere; }
.hint { color: var(--muted); font-weight: 400; font-size: 0.9em; }
input, select, textarea { width: 100%; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; }
input[type="checkbox"] { width: auto; }
textarea { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; min-height: 6em; }
button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--bg); margin-top: 10px; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:disabled { opacity: 0.6; cursor: progress; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; }
.error { color: var(--bad); font-size: 0.9em; margin: 2px 0 0; }
.error:empty { display: none; }
#status { margin: 4px 0 0; color: var(--muted); }
ol#transcript { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
ol#transcript > li { border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: var(--bg);
  overflow-wrap: anywhere; }
.line { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; margin: 0; }
.status-ok { color: var(--ok); } .status-bad { color: var(--bad); }
pre { margin: 4px 0; white-space: pre-wrap; word-break: break-word; font-size: 12px; max-height: 16em;
  overflow: auto; }
ul.calls { margin: 4px 0 0; padding-left: 8px; list-style: none; }
summary { cursor: pointer; color: var(--muted); font-size: 0.9em; }
.note { color: var(--muted); font-style: italic; margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`;
