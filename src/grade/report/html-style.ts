// The html report's style sheet, inlined in the page (it opens from disk, with no network): readable on screen and
// in print, colours that keep WCAG AA contrast (the browser test runs axe-core), and no layout that needs script.
// A class of hundreds is tens of thousands of elements, and laying them all out was most of the page's load: each
// table's region and each submission's details are `content-visibility: auto`, so the browser lays out and paints
// only what is near the screen. Nothing is left out of the page: what is skipped is still in the document, found by
// find-in-page, read by a screen reader, reached by a link, and printed.
export const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg-alt: #f6f8fa;
  --pass: #116329; --fail: #a40e26; --warn: #7d4e00; --link: #0550ae; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 80rem; padding: 1rem 1rem 4rem; color: var(--fg); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
h1 { font-size: 1.6rem; margin: 0.5rem 0; }
h2 { font-size: 1.25rem; margin: 2.5rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 0.25rem; }
a { color: var(--link); }
p.lead { color: var(--muted); margin: 0 0 1rem; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85rem; }
code { background: var(--bg-alt); padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: var(--bg-alt); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem;
  overflow-x: auto; white-space: pre; margin: 0.5rem 0; }
pre .del { color: var(--pass); }
pre .ins { color: var(--fail); }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
.scroll { overflow-x: auto; max-width: 100%; content-visibility: auto; contain-intrinsic-size: auto 30rem; }
td { overflow-wrap: anywhere; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.6rem; border-bottom: 1px solid var(--line); }
th { background: var(--bg-alt); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:hover { background: #eef4fb; }
th button { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; color: var(--link); cursor: pointer; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
.totals { display: flex; flex-wrap: wrap; gap: 0.75rem; list-style: none; padding: 0; margin: 1rem 0; }
.totals li { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 0.9rem; min-width: 8rem; }
.totals strong { display: block; font-size: 1.5rem; }
.verdict-pass { color: var(--pass); font-weight: 600; }
.verdict-fail, .verdict-did-not-start, .verdict-misuse { color: var(--fail); font-weight: 600; }
.hint { border-left: 4px solid #bf8700; background: #fff8c5; padding: 0.4rem 0.7rem; margin: 0.5rem 0; }
.hint strong { color: var(--warn); }
.mistake-id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.8rem; color: var(--muted); }
.names { margin: 0.25rem 0 0; padding-left: 1.2rem; columns: 14rem; }
details > summary { cursor: pointer; color: var(--link); }
meter { width: 7rem; vertical-align: middle; }
.controls { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; margin: 0.5rem 0; }
.controls label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); }
.controls input, .controls select { font: inherit; padding: 0.2rem 0.4rem; min-width: 12rem; max-width: 100%; }
.controls label { max-width: 100%; }
.submission { border-top: 2px solid var(--line); margin-top: 2rem; content-visibility: auto;
  contain-intrinsic-size: auto 20rem; }
.failure { margin: 1rem 0 1.5rem; }
.failure h4 { margin: 0; font-size: 1rem; }
.muted { color: var(--muted); }
.button-link { font: inherit; background: none; border: 1px solid var(--line); border-radius: 4px; color: var(--link);
  cursor: pointer; padding: 0 0.4rem; }
.histogram td:last-child { width: 60%; }
.histogram meter { width: 100%; }
@media (max-width: 40rem) { th { white-space: normal; } meter { width: 4rem; } .controls input, .controls select { min-width: 0; max-width: 100%; } }
@media print { details { display: block; } .controls, th button::after { display: none; }
  .scroll, .submission { content-visibility: visible; } }
`;
