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
  mistakesOf,
  ran,
  stagesOf,
  submissionScore,
} from './class-mistakes.ts';
import { html, type Markup, prose } from './html-markup.ts';
import { renderFailures } from './html-submission.ts';

// How each verdict reads on the page.
const VERDICT_WORDS: Record<SubmissionVerdict, string> = {
  pass: 'pass',
  fail: 'fail',
  'did not start': 'did not start',
  misuse: 'could not be graded',
};

// The page's body for a class.
export function renderClassBody(report: ClassReport): Markup {
  const mistakes = classMistakes(report);
  const ids = new Map(report.submissions.map((s, i) => [s.name, `s-${i + 1}`]));
  const rank = new Map(mistakes.map((m, i) => [m.id, i + 1]));
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
<li><strong>${mistakes.length}</strong> ${mistakes.length === 1 ? 'mistake' : 'mistakes'} found</li>
</ul>
${(report.warnings ?? []).map((w) => html`<p class="hint"><strong>warning:</strong> ${w}</p>`)}
</header>
<main>
${mistakesSection(mistakes, report.submissions.length, ids)}
${notStartedSection(report.submissions, ids)}
${submissionsSection(report.submissions, mistakes, ids, rank)}
${casesSection(caseRates(report), rank, report, ids)}
<h2 id="details">Submissions in detail</h2>
${report.submissions.map((s) => details(s, ids.get(s.name)!))}
</main>
`;
}

function mistakesSection(mistakes: ClassMistake[], total: number, ids: Map<string, string>): Markup {
  if (mistakes.length === 0) {
    return html`<h2 id="mistakes">Mistakes</h2><p>No submission made a mistake the grader could name.</p>`;
  }
  return html`<h2 id="mistakes">Mistakes, most common first</h2>
<table id="mistake-table">
<thead><tr><th class="num">#</th><th>Submissions</th><th>Mistake and its hint</th><th>Who made it</th></tr></thead>
<tbody>
${mistakes.map(
  (m, i) => html`<tr id="${m.id}" data-mistake-row="${m.id}">
<td class="num">${i + 1}</td>
<td class="num"><strong data-count>${m.submissions.length}</strong> of ${total}
<meter min="0" max="${total}" value="${m.submissions.length}" aria-label="${m.submissions.length} of ${total} submissions"></meter></td>
<td><p class="hint-text">${prose(m.hint)}</p><span class="mistake-id">${m.id}</span></td>
<td><details><summary>${m.submissions.length === 1 ? '1 submission' : `${m.submissions.length} submissions`}</summary>
<ul class="names">${m.submissions.map(
    (s) =>
      html`<li><a href="#${ids.get(s.name)!}">${s.name}</a> <span class="muted">(${s.cases} ${s.cases === 1 ? 'case' : 'cases'})</span></li>`,
  )}</ul></details>
<button type="button" class="button-link" data-mistake="${m.id}" hidden>Filter the table</button></td>
</tr>`,
)}
</tbody>
</table>
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
  return html`<tr><td><a href="#${ids.get(s.name)!}">${s.name}</a></td><td>${verdict(s.verdict)}</td>
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
  rank: Map<string, number>,
): Markup {
  return html`<h2 id="submissions-heading">Submissions</h2>
<div class="controls" id="filters" hidden>
<label>Name contains <input type="search" id="filter-name"></label>
<label>Verdict <select id="filter-verdict"><option value="">any</option>${Object.entries(VERDICT_WORDS).map(
    ([value, words]) => html`<option value="${value}">${words}</option>`,
  )}</select></label>
<label>Mistake <select id="filter-mistake"><option value="">any</option>${mistakes.map(
    (m, i) => html`<option value="${m.id}">#${i + 1} ${m.id} (${m.submissions.length})</option>`,
  )}</select></label>
<p id="filter-count" role="status" aria-live="polite"></p>
</div>
<table id="submissions" data-sortable>
<thead><tr><th>Submission</th><th>Verdict</th><th class="num" data-type="number">Score</th><th class="num" data-type="number">Passed</th><th class="num" data-type="number">Failed</th><th>Stages</th><th>Mistakes</th></tr></thead>
<tbody>
${submissions.map((s) => {
  const score = submissionScore(s.report);
  const made = mistakesOf(s.report).map((m) => m.id);
  return html`<tr data-name="${s.name}" data-verdict="${s.verdict}" data-mistakes="${made.join(' ')}">
<td data-sort="${s.name}"><a href="#${ids.get(s.name)!}">${s.name}</a></td>
<td>${verdict(s.verdict)}</td>
<td class="num" data-sort="${score.score}">${score.score} of ${score.maxScore}</td>
<td class="num">${s.passed}</td>
<td class="num">${s.failed}</td>
<td>${stagesOf(s.report)
    .map((r) => `${r.stage} ${r.failed === 0 ? '✓' : '✗'}`)
    .join(', ')}</td>
<td data-sort="${made.map((id) => String(rank.get(id)).padStart(4, '0')).join(' ')}">${made.map(
    (id) => html`<a href="#${id}">#${rank.get(id) ?? ''}</a> `,
  )}</td>
</tr>`;
})}
</tbody>
</table>
`;
}

function casesSection(
  rates: CaseRate[],
  rank: Map<string, number>,
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
<td>${rate.mistakes.map((id) => html`<a href="#${id}">#${rank.get(id) ?? ''}</a> `)}</td>
<td>${
    who.length === 0
      ? html`<span class="muted">none</span>`
      : html`<details><summary>${who.length}</summary><ul class="names">${who.map(
          (name) => html`<li><a href="#${ids.get(name)!}">${name}</a></li>`,
        )}</ul></details>`
  }</td>
</tr>`;
})}
</tbody>
</table>
`;
}

// One submission's part of the page: its verdict, score and counts, why it did not run, and its failures.
function details(s: SubmissionResult, id: string): Markup {
  const score = submissionScore(s.report);
  return html`<section class="submission" id="${id}" aria-labelledby="${id}-name">
<h3 id="${id}-name">${s.name}</h3>
<p>${verdict(s.verdict)} · score ${score.score} of ${score.maxScore} · ${s.passed} passed, ${s.failed} failed · <span class="muted">${s.dir}</span></p>
${s.verdict === 'misuse' ? html`<p>${s.message ?? ''}</p>` : renderFailures(s.report, { level: 4, mistakeLinks: true })}
<p><a href="#submissions-heading">Back to the submissions</a></p>
</section>
`;
}

function verdict(v: SubmissionVerdict): Markup {
  return html`<span class="verdict-${v.replace(/ /g, '-')}">${VERDICT_WORDS[v]}</span>`;
}
