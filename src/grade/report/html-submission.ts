// One submission's failures as the html report shows them, in the terminal's order and words
// (render-failure.ts, render-group.ts): each mistake once, its first case in full (the call, its input, the hint,
// expected against received, what the program printed) and the other cases that fail the same way by name; a
// program that did not start, once, with its error. Every piece of it that the program wrote is text
// (html-markup.ts). Pure.
import { short } from '../judge/compare-results.ts';
import type { CaseResult, RunReport } from '../types.ts';
import { causeOfCase, stagesOf, submissionMistakes } from './class-mistakes.ts';
import { groupFailures, type FailureGroup } from './group-failures.ts';
import { html, type Markup, prose } from './html-markup.ts';
import { renderValueDiff } from './render-diff.ts';
import { renderOutput } from './render-failure.ts';
import { trimStack } from './trim-stack.ts';

// How long an input is shown (as the terminal shows it).
const INPUT_CHARS = 300;

// The heading level a page gives a stage (when it graded several) or, when it graded one, each failure.
export type Level = 2 | 3 | 4;

// Every stage's failures (a green stage says so in one line). `mistakeLinks`: each hint links to its mistake's
// row in the class's table, which a page of one submission has not.
export function renderFailures(report: RunReport, options: { level: Level; mistakeLinks: boolean }): Markup {
  const stages = stagesOf(report);
  const { idOf } = submissionMistakes(report);
  return html`${stages.map((stage) => {
    const failed = stage.cases.filter((c) => c.status === 'fail');
    const heading = stages.length === 1 ? false : headingAt(options.level, html`Stage ${stage.stage}`);
    const level = stages.length === 1 ? options.level : options.level + 1;
    const counts = html`<p class="muted">${stage.stage}: ${stage.passed} passed, ${stage.failed} failed${
      stage.skipped === undefined ? '' : `, ${stage.skipped} not run (--bail)`
    }.</p>`;
    const warnings = (stage.warnings ?? []).map((w) => html`<p class="hint"><strong>warning:</strong> ${w}</p>`);
    const groups = groupFailures(failed).map((g) =>
      failureGroup(g, { level, mistakeLinks: options.mistakeLinks, total: stage.cases.length, idOf }),
    );
    return html`${heading}${counts}${warnings}${groups}`;
  })}`;
}

function failureGroup(
  group: FailureGroup,
  options: { level: number; mistakeLinks: boolean; total: number; idOf: ReadonlyMap<string, string> },
): Markup | undefined {
  const [first, ...rest] = group.results;
  if (first?.failure === undefined) return undefined;
  if (first.failure.beforeAnyCase === true) return loadFailure(first, group.results.length, options);
  const f = first.failure;
  const description = first.description === '' ? '' : html` <span class="muted">— ${first.description}</span>`;
  const call =
    f.call === undefined
      ? false
      : html`<p>${f.callIndex === undefined ? 'The call' : `Call ${f.callIndex + 1}`}: <code>${f.call.tool}</code>,
input <code>${short(f.call.input, INPUT_CHARS)}</code></p>`;
  const others =
    rest.length === 0
      ? false
      : html`<details><summary>${rest.length} more ${rest.length === 1 ? 'case fails' : 'cases fail'} the same way</summary>
<ul class="names">${rest.map((r) => html`<li>${r.name}</li>`)}</ul></details>`;
  return html`<div class="failure">
${headingAt(options.level, html`✗ ${first.name}${description}`)}
<p>${f.message}</p>
${call}${hint(first, options.mistakeLinks, options.idOf)}${diff(first)}${output(first.output)}${others}
</div>
`;
}

// A program that failed before its first case: one verdict, its error once (without Node's own stack frames).
function loadFailure(first: CaseResult, count: number, options: { level: number; total: number }): Markup {
  const which =
    count === options.total ? `none of the ${count} cases ran` : `${count} of the ${options.total} cases did not run`;
  const trimmed = trimStack(first.output);
  return html`<div class="failure">
${headingAt(options.level, html`✗ The program did not start <span class="muted">— ${which}</span>`)}
<p>${first.failure?.message ?? ''}</p>
${output(trimmed.text)}${
  trimmed.dropped > 0 &&
  html`<p class="muted">(${trimmed.dropped} lines of stack inside Node and node_modules left out)</p>`
}${hint(first, false, new Map())}
</div>
`;
}

// The hint, and the mistake it is part of (its id, a link to the class's row for it; `idOf` by cause).
function hint(result: CaseResult, link: boolean, idOf: ReadonlyMap<string, string>): Markup | false {
  const text = result.failure?.hint;
  if (text === undefined) return false;
  const cause = causeOfCase(result);
  const id = cause === undefined ? undefined : idOf.get(cause);
  const tag =
    id === undefined
      ? false
      : link
        ? html` <a class="mistake-id" href="#${id}">${id}</a>`
        : html` <span class="mistake-id">${id}</span>`;
  return html`<p class="hint"><strong>hint:</strong> ${prose(text)}${tag}</p>`;
}

// Expected against received, as the terminal's diff (a hidden case's failure holds no expected result: no diff).
function diff(result: CaseResult): Markup | false {
  const f = result.failure;
  if (f === undefined || (f.kind !== 'mismatch' && f.kind !== 'result-count') || !('expected' in f)) return false;
  const expected = f.variant === undefined ? 'expected (snapshot)' : 'expected (the reference, on the variant)';
  const text = renderValueDiff(f.expected, f.received, {
    color: false,
    labels: { expected, received: 'received (the program)' },
  });
  const lines = text.split('\n').map((line) => {
    if (line.startsWith('- ')) return html`<span class="del">${line}</span>\n`;
    if (line.startsWith('+ ')) return html`<span class="ins">${line}</span>\n`;
    return html`${line}\n`;
  });
  // Focusable, so a keyboard can scroll a long line into view (axe: scrollable-region-focusable).
  return html`<pre tabindex="0">${lines}</pre>`;
}

// The tail of what the program printed, each line `[your_program] `-prefixed as the terminal shows it.
function output(text: string): Markup | false {
  const shown = renderOutput(text);
  return shown !== '' && html`<pre tabindex="0">${shown}</pre>`;
}

function headingAt(level: number, content: Markup): Markup {
  // The levels are the caller's numbers, never text: a tag name from a value would be markup from a value.
  switch (level) {
    case 2:
      return html`<h2>${content}</h2>`;
    case 3:
      return html`<h3>${content}</h3>`;
    case 4:
      return html`<h4>${content}</h4>`;
    default:
      return html`<h5>${content}</h5>`;
  }
}
