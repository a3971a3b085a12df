// The html reporter: a run as one self-contained page for staff (html-page.ts). For one course directory, its
// totals, the mistakes it made and each failure in full; for a class (`--dir 'subs/*'`), the class at a glance
// (html-class.ts). Every word a submission wrote is text on the page, never markup (html-markup.ts).
import type { ClassReport, RunReport } from '../types.ts';
import { mistakesOf, stagesOf, submissionScore } from './class-mistakes.ts';
import { renderClassBody } from './html-class.ts';
import { html, prose } from './html-markup.ts';
import { renderPage } from './html-page.ts';
import { renderFailures } from './html-submission.ts';

// One course directory's report as a page (the reporter table's entry, src/grade/report/index.ts).
export function render(report: RunReport): string {
  const stages = stagesOf(report);
  const passed = stages.reduce((n, r) => n + r.passed, 0);
  const failed = stages.reduce((n, r) => n + r.failed, 0);
  const score = submissionScore(report);
  const mistakes = mistakesOf(report);
  const body = html`<header>
<h1>Report: ${report.stage}</h1>
<p class="lead">${report.dir} · ${stages.map((r) => `${r.stage} ${r.failed === 0 ? '✓' : '✗'}`).join(', ')} · ${(report.durationMs / 1000).toFixed(1)} s</p>
<ul class="totals">
<li><strong>${passed}</strong> passed</li>
<li><strong>${failed}</strong> failed</li>
<li><strong>${score.score} of ${score.maxScore}</strong> points</li>
<li><strong>${mistakes.length}</strong> ${mistakes.length === 1 ? 'mistake' : 'mistakes'} found</li>
</ul>
</header>
<main>
${
  mistakes.length > 0 &&
  html`<h2 id="mistakes">Mistakes</h2>
<ul>${mistakes.map(
    (m) =>
      html`<li><span class="hint-text">${prose(m.hint)}</span> <span class="mistake-id">${m.id}</span> <span class="muted">(${m.cases.length} ${m.cases.length === 1 ? 'case' : 'cases'})</span></li>`,
  )}</ul>`
}
<h2 id="failures">${failed === 0 ? 'Every case passed' : 'Failures'}</h2>
${renderFailures(report, { level: 3, mistakeLinks: false })}
</main>
`;
  return renderPage(`theinference: ${report.stage}`, body);
}

// A class's run as a page.
export function renderClassHtml(report: ClassReport): string {
  return renderPage(`theinference: class report, ${report.stage}`, renderClassBody(report));
}
