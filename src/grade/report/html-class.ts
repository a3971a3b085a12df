// A class's run as one page, in the order an instructor asks about it: the totals; the mistakes, most submissions
// first, each with its hint and who made it; the submissions that did not start, and why; every submission's
// verdict, score and stages (sortable, filterable by name, verdict and mistake); the cases, lowest pass rate first;
// then each submission's failures in full. Every row links to its details on the page. Pure.
import type { ClassReport, SubmissionResult, SubmissionVerdict } from '../types.ts';
import {
  type CaseRate,
  caseRates,
  type ClassMistake,
  classMistakes,
  causeOfCase,
  ran,
  stagesOf,
  submissionScore,
} from './class-mistakes.ts';
import { firstSentence } from './class-summary.ts';
import { html, type Markup, prose } from './html-markup.ts';
import { nameText } from './visible-text.ts';
import { renderFailures } from './html-submission.ts';

// How each verdict reads on the page.
const VERDICT_WORDS: Record<SubmissionVerdict, string> = {
  pass: 'pass',
  fail: 'fail',
  'did not start': 'did not start',
  misuse: 'could not be graded',
};

// The row of the failures no hint names: a submission whose program ran and failed a case without naming a mistake
// is ranked and filterable like one that made a named mistake, rather than looking like a pass.
const UNNAMED = 'unnamed';
const UNNAMED_HINT =
  "Failed without a mistake the grader could name: each such failure says what differs, in the submission's details.";

// The submissions whose program ran and failed a case that names no mistake.
function unnamedMistake(report: ClassReport): ClassMistake | undefined {
  const submissions = report.submissions.filter(ran).flatMap((s) => {
    const cases = stagesOf(s.report)
      .flatMap((r) => r.cases)
      .filter((c) => c.status === 'fail' && causeOfCase(c) === undefined).length;
    return cases === 0 ? [] : [{ name: s.name, cases }];
  });
  return submissions.length === 0 ? undefined : { id: UNNAMED, hint: UNNAMED_HINT, submissions };
}

// A mistake in a few words, where a table cell or a menu names it: its hint's first sentence, cut.
export function mistakeWords(m: ClassMistake): string {
  const first = firstSentence(m.hint);
  return first.length <= 90 ? first : `${first.slice(0, 89)}…`;
}

// The page's body for a class.
export function renderClassBody(graded: ClassReport): Markup {
  const report = { ...graded, submissions: graded.submissions.map(byName) };
  const named = classMistakes(report);
  const unnamed = unnamedMistake(report);
  // Every row, most submissions first; the unnamed failures rank among them by the same count.
  const mistakes =
    unnamed === undefined ? named : [...named, unnamed].sort((a, b) => b.submissions.length - a.submissions.length);
  const ids = new Map(report.submissions.map((s, i) => [s.name, `s-${i + 1}`]));
  const byId = new Map(mistakes.map((m) => [m.id, m]));
  const count = (v: SubmissionVerdict): number => report.submissions.filter((s) => s.verdict === v).length;
  const stages = [...new Set(report.submissions.flatMap((s) => stagesOf(s.report).map((r) => r.stage)))];
  return html`<header>
<h1>Class report: ${report.stage}</h1>
<p class="lead">${report.submissions.length} submissions graded on ${stages.join(', ')} in ${(report.durationMs / 1000).toFixed(1)} s${
    report.variants === undefined ? '' : `; variants seed ${report.variants.seed}`
  }.</p>
<ul class="totals">
<li><strong>${count('pass')}</strong> passed</li>
<li><strong>${count('fail')}</strong> failed</li>
<li><strong>${count('did not start')}</strong> did not start</li>
<li><strong>${count('misuse')}</strong> could not be graded</li>
<li><strong>${named.length}</strong> ${named.length === 1 ? 'mistake' : 'mistakes'} found</li>
</ul>
${(report.warnings ?? []).map((w) => html`<p class="hint"><strong>warning:</strong> ${w}</p>`)}
</header>
<main>
${mistakesSection(mistakes, report.submissions.length, ids)}
${scoresSection(report.submissions)}
${notStartedSection(report.submissions, ids)}
${submissionsSection(report.submissions, mistakes, ids, byId)}
${casesSection(caseRates(report), byId, report, ids)}
<h2 id="details">Submissions in detail</h2>
${report.submissions.map((s) => details(s, ids.get(s.name)!))}
</main>
`;
}

// The spread of the class's scores, as a share of each submission's points: mean, median, and how many fell in each
// tenth (as Gradescope's statistics show an instructor).
function scoresSection(submissions: SubmissionResult[]): Markup | false {
  const shares = submissions.map((s) => {
    const { score, maxScore } = submissionScore(s.report);
    return maxScore === 0 ? 0 : (100 * score) / maxScore;
  });
  if (shares.length === 0) return false;
  const sorted = [...shares].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  const buckets = Array.from({ length: 11 }, (_, i) => ({
    label: i === 10 ? '100%' : `${i * 10}–${i * 10 + 9}%`,
    count: shares.filter((p) => (i === 10 ? p === 100 : p >= i * 10 && p < i * 10 + 10)).length,
  }));
  const most = Math.max(...buckets.map((b) => b.count));
  return html`<h2 id="scores">Scores</h2>
<p>Mean <strong>${mean.toFixed(1)}%</strong>, median <strong>${median.toFixed(1)}%</strong> of the points, over ${shares.length} submissions.</p>
<div class="scroll" role="region" aria-label="Score distribution" tabindex="0">
<table class="histogram">
<thead><tr><th>Score</th><th class="num">Submissions</th><th>Share</th></tr></thead>
<tbody>
${buckets.map(
  (b) =>
    html`<tr><td>${b.label}</td><td class="num">${b.count}</td><td><meter min="0" max="${most}" value="${b.count}" aria-label="${b.count} submissions scored ${b.label}"></meter></td></tr>`,
)}
</tbody>
</table>
</div>
`;
}

function mistakesSection(mistakes: ClassMistake[], total: number, ids: Map<string, string>): Markup {
  if (mistakes.length === 0) {
    return html`<h2 id="mistakes">Mistakes</h2><p>No submission made a mistake the grader could name.</p>`;
  }
  return html`<h2 id="mistakes">Mistakes, most common first</h2>
<div class="scroll" role="region" aria-label="Mistakes" tabindex="0">
<table id="mistake-table">
<thead><tr><th class="num">#</th><th>Submissions</th><th>Mistake and its hint</th><th>Who made it</th></tr></thead>
<tbody>
${mistakes.map(
  (m, i) => html`<tr id="${m.id}" data-mistake-row="${m.id}">
<td class="num">${i + 1}</td>
<td class="num"><strong data-count>${m.submissions.length}</strong> of ${total}
<meter min="0" max="${total}" value="${m.submissions.length}" aria-label="${m.submissions.length} of ${total} submissions"></meter></td>
<td><p class="hint-text">${prose(m.hint)}</p>${m.id === UNNAMED ? '' : html`<span class="mistake-id">id ${m.id} in the summary</span>`}</td>
<td><details><summary>${m.submissions.length === 1 ? '1 submission' : `${m.submissions.length} submissions`}</summary>
<ul class="names">${m.submissions.map(
    (s) =>
      html`<li><a href="#${ids.get(s.name)!}">${nameText(s.name)}</a> <span class="muted">(${s.cases} ${s.cases === 1 ? 'case' : 'cases'})</span></li>`,
  )}</ul></details>
<button type="button" class="button-link" data-mistake="${m.id}" hidden>Filter the table</button></td>
</tr>`,
)}
</tbody>
</table>
</div>
`;
}

function notStartedSection(submissions: SubmissionResult[], ids: Map<string, string>): Markup | false {
  const stuck = submissions.filter((s) => !ran(s));
  if (stuck.length === 0) return false;
  return html`<h2 id="not-started">Did not start or could not be graded</h2>
<table>
<thead><tr><th>Submission</th><th>Verdict</th><th>Why</th></tr></thead>
<tbody>
${stuck.map((s) => {
  const hint = stagesOf(s.report)
    .flatMap((r) => r.cases)
    .find((c) => c.failure?.hint !== undefined)?.failure?.hint;
  return html`<tr><td><a href="#${ids.get(s.name)!}">${nameText(s.name)}</a></td><td>${verdict(s.verdict)}</td>
<td>${s.message ?? ''}${hint !== undefined && html`<p class="hint"><strong>hint:</strong> ${prose(hint)}</p>`}</td></tr>`;
})}
</tbody>
</table>
`;
}

function submissionsSection(
  submissions: SubmissionResult[],
  mistakes: ClassMistake[],
  ids: Map<string, string>,
  byId: Map<string, ClassMistake>,
): Markup {
  // Each submission's mistakes, as the table names them; the unnamed failures' row counts too.
  const madeBy = new Map<string, string[]>();
  for (const m of mistakes) for (const s of m.submissions) madeBy.set(s.name, [...(madeBy.get(s.name) ?? []), m.id]);
  const rank = new Map(mistakes.map((m, i) => [m.id, i + 1]));
  return html`<h2 id="submissions-heading">Submissions</h2>
<div class="controls" id="filters" hidden>
<label>Name contains <input type="search" id="filter-name"></label>
<label>Verdict <select id="filter-verdict"><option value="">any</option>${Object.entries(VERDICT_WORDS).map(
    ([value, words]) => html`<option value="${value}">${words}</option>`,
  )}</select></label>
<label>Mistake <select id="filter-mistake"><option value="">any</option>${mistakes.map(
    (m) => html`<option value="${m.id}">${mistakeWords(m)} (${m.submissions.length})</option>`,
  )}</select></label>
<p id="filter-count" role="status" aria-live="polite"></p>
</div>
<div class="scroll" role="region" aria-label="Submissions" tabindex="0">
<table id="submissions" data-sortable>
<thead><tr><th>Submission</th><th>Verdict</th><th class="num" data-type="number">Score</th><th class="num" data-type="number">Passed</th><th class="num" data-type="number">Failed</th><th>Stages</th><th>Mistakes</th></tr></thead>
<tbody>
${submissions.map((s) => {
  const score = submissionScore(s.report);
  const made = (madeBy.get(s.name) ?? []).sort((a, b) => rank.get(a)! - rank.get(b)!);
  return html`<tr data-name="${nameText(s.name)}" data-verdict="${s.verdict}" data-mistakes="${made.join(' ')}">
<td data-sort="${nameText(s.name)}"><a href="#${ids.get(s.name)!}">${nameText(s.name)}</a></td>
<td>${verdict(s.verdict)}</td>
<td class="num" data-sort="${score.score}">${score.score} of ${score.maxScore}</td>
<td class="num">${s.passed}</td>
<td class="num">${s.failed}</td>
<td>${stagesOf(s.report)
    .map((r) => `${r.stage} ${r.failed === 0 ? '✓' : '✗'}`)
    .join(', ')}</td>
<td data-sort="${made.map((id) => String(rank.get(id)).padStart(4, '0')).join(' ')}">${mistakeLinks(made, byId)}</td>
</tr>`;
})}
</tbody>
</table>
</div>
`;
}

function casesSection(
  rates: CaseRate[],
  byId: Map<string, ClassMistake>,
  report: ClassReport,
  ids: Map<string, string>,
): Markup | false {
  if (rates.length === 0) return false;
  // Who failed each case, by its stage and name.
  const failedBy = new Map<string, string[]>();
  for (const s of report.submissions.filter(ran)) {
    for (const r of stagesOf(s.report)) {
      for (const c of r.cases.filter((c) => c.status === 'fail')) {
        const key = JSON.stringify([r.stage, c.name]);
        failedBy.set(key, [...(failedBy.get(key) ?? []), s.name]);
      }
    }
  }
  return html`<h2 id="cases">Cases, lowest pass rate first</h2>
<p class="lead">Over the submissions whose program ran.</p>
<div class="scroll" role="region" aria-label="Cases" tabindex="0">
<table id="case-table" data-sortable>
<thead><tr><th>Case</th><th>Stage</th><th class="num" data-type="number">Passed</th><th>Mistakes behind its failures</th><th>Failed by</th></tr></thead>
<tbody>
${rates.map((rate) => {
  const failed = rate.graded - rate.passed;
  const who = failed === 0 ? [] : (failedBy.get(JSON.stringify([rate.stage, rate.name])) ?? []);
  return html`<tr>
<td>${rate.name}</td>
<td>${rate.stage}</td>
<td class="num" data-sort="${rate.passed / rate.graded}">${rate.passed} of ${rate.graded}
<meter min="0" max="${rate.graded}" value="${rate.passed}" aria-label="${rate.passed} of ${rate.graded} passed"></meter></td>
<td>${mistakeLinks(rate.mistakes, byId)}</td>
<td>${
    who.length === 0
      ? html`<span class="muted">none</span>`
      : html`<details><summary>${who.length}</summary><ul class="names">${who.map(
          (name) => html`<li><a href="#${ids.get(name)!}">${nameText(name)}</a></li>`,
        )}</ul></details>`
  }</td>
</tr>`;
})}
</tbody>
</table>
</div>
`;
}

// Mistakes named in words, each a link to its row.
function mistakeLinks(ids: string[], byId: Map<string, ClassMistake>): Markup {
  return html`${ids.map((id, i) => {
    const m = byId.get(id);
    return html`${i === 0 ? '' : html`<br>`}<a href="#${id}">${m === undefined ? id : mistakeWords(m)}</a>`;
  })}`;
}

// A submission as the page shows it, without the grader machine's path to it: wherever its message, its cases'
// messages, hints and output name its directory (a program that did not start names its files there), its name
// stands instead.
function byName(s: SubmissionResult): SubmissionResult {
  if (s.dir === '') return s;
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(s.dir).join(s.name);
    if (Array.isArray(value)) return value.map(swap);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, swap(v)]));
  };
  return {
    ...s,
    ...(s.message === undefined ? {} : { message: swap(s.message) as string }),
    report: swap(s.report) as SubmissionResult['report'],
  };
}

// One submission's part of the page: its verdict, score and counts, why it did not run, and its failures.
function details(s: SubmissionResult, id: string): Markup {
  const score = submissionScore(s.report);
  return html`<section class="submission" id="${id}" aria-labelledby="${id}-name">
<h3 id="${id}-name">${nameText(s.name)}</h3>
<p>${verdict(s.verdict)} · score ${score.score} of ${score.maxScore} · ${s.passed} passed, ${s.failed} failed</p>
${s.verdict === 'misuse' ? html`<p>${s.message ?? ''}</p>` : renderFailures(s.report, { level: 4, mistakeLinks: true })}
<p><a href="#submissions-heading">Back to the submissions</a></p>
</section>
`;
}

function verdict(v: SubmissionVerdict): Markup {
  return html`<span class="verdict-${v.replace(/ /g, '-')}">${VERDICT_WORDS[v]}</span>`;
}
