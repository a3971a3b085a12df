// The html reporter's pages as text (the browser test, html-browser.test.ts, opens them): every report the other
// reporters are tested over renders with the page's one script and nothing a program wrote as markup; earlier stages
// (--previous) each get their part; a class page ranks mistakes and tells who did not start.
import { describe, expect, it } from 'vitest';
import { mistakeId } from '../../../src/grade/report/class-mistakes.ts';
import { render, renderClassHtml } from '../../../src/grade/report/html.ts';
import type { ClassReport, RunReport } from '../../../src/grade/types.ts';
import { HOSTILE_OUTPUT, mismatch, pass, report, RUNS } from './reports.ts';

// The tags the page writes itself; anything else in it would have come from a value.
const OWN_TAGS = new Set(
  'html head meta title style body header main h1 h2 h3 h4 h5 p ul li strong span code pre a div table thead tbody tr th td details summary meter section label input select option button br'.split(
    ' ',
  ),
);

function tagsOf(page: string): Set<string> {
  const body = page.replace(/<script>[\s\S]*?<\/script>/, '').replace(/<style>[\s\S]*?<\/style>/, '');
  return new Set([...body.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase()));
}

describe('render (one course directory)', () => {
  it.each(Object.entries(RUNS))('%s: a whole page, its own tags only, one script', (_, run) => {
    const page = render(run);
    expect(page).toMatch(/^<!doctype html>\n[\s\S]*<\/html>\n$/);
    expect(page.match(/<script>/g)).toHaveLength(1);
    for (const tag of tagsOf(page)) expect(OWN_TAGS, tag).toContain(tag);
  });

  it('shows a hostile program’s output as text', () => {
    const page = render(RUNS.hostile!);
    // A workflow command in it is written with a character reference: a CI log never reads it as one.
    expect(page).toContain('[your_program] &#58;:add-mask&#58;:x');
    expect(page).not.toMatch(/^\s*::add-mask/m);
    expect(page).not.toMatch(/[\u0000\u0007\u001b\u0085\u2028]/);
    expect(page).toContain(HOSTILE_OUTPUT.split('\n')[0]!.replaceAll('::', '&#58;:'));
  });

  it('gives each stage graded its part with --previous', () => {
    const run: RunReport = { ...report('agent-loop', [pass('a')]), previous: [report('register-tools', [mismatch])] };
    const page = render(run);
    expect(page).toContain('<h3>Stage agent-loop</h3>');
    expect(page).toContain('<h3>Stage register-tools</h3>');
    expect(page).toContain('<h4>✗ read-alias');
  });
});

describe('renderClassHtml', () => {
  const failing = (name: string, cause: string): RunReport =>
    report('register-tools', [{ ...mismatch, name, failure: { ...mismatch.failure!, hintCause: cause } }]);
  const CLASS: ClassReport = {
    stage: 'register-tools',
    durationMs: 1000,
    submissions: [
      { name: 'a', dir: '/c/a', verdict: 'fail', passed: 0, failed: 1, report: failing('x', 'B') },
      { name: 'b', dir: '/c/b', verdict: 'fail', passed: 0, failed: 1, report: failing('x', 'A') },
      { name: 'c', dir: '/c/c', verdict: 'fail', passed: 0, failed: 1, report: failing('y', 'A') },
      {
        name: 'd',
        dir: '/c/d',
        verdict: 'misuse',
        passed: 0,
        failed: 1,
        message: '/c/d has no program.ts.',
        report: report('register-tools', []),
      },
    ],
  };

  it('ranks the mistakes, most submissions first, and tells who could not be graded and why', () => {
    const page = renderClassHtml(CLASS);
    const rows = [...page.matchAll(/<tr id="(m-[0-9a-f]{8})"/g)].map((m) => m[1]);
    expect(rows).toEqual([mistakeId('A'), mistakeId('B')]);
    expect(page).toMatch(/<h2 id="not-started">[\s\S]*<a href="#s-4">d<\/a>[\s\S]*<td>d has no program\.ts\./);
    for (const tag of tagsOf(page)) expect(OWN_TAGS, tag).toContain(tag);
  });

  it("shows no path of the grader's machine", () => {
    expect(renderClassHtml(CLASS)).not.toContain('/c/');
  });

  it("shows no path of the grader's machine where a program that did not start names its files", () => {
    const where = '/c/f/src/execute.ts:3';
    const crashed = report('register-tools', [
      {
        ...mismatch,
        name: 'x',
        output: `SyntaxError at ${where}\n    at /c/f/src/execute.ts:3:7`,
        failure: {
          kind: 'crash',
          message: `the program did not start: ${where}`,
          hint: `fix ${where} first`,
          beforeAnyCase: true,
        },
      },
    ]);
    const page = renderClassHtml({
      ...CLASS,
      submissions: [
        ...CLASS.submissions,
        { name: 'f', dir: '/c/f', verdict: 'did not start', passed: 0, failed: 1, message: where, report: crashed },
      ],
    });
    expect(page).not.toContain('/c/');
    expect(page).toContain('fix f/src/execute.ts:3 first');
    expect(page).toContain('SyntaxError at f/src/execute.ts:3');
  });

  it('names each mistake in words in the filter and the table, never by its id alone', () => {
    const page = renderClassHtml(CLASS);
    const words = mismatch.failure!.hint!.replace(/\.$/, '').slice(0, 40);
    const options = [...page.matchAll(/<option value="(m-[0-9a-f]{8})">([^<]*)<\/option>/g)];
    expect(options.map((o) => o[1])).toEqual([mistakeId('A'), mistakeId('B')]);
    for (const o of options) expect(o[2]).toContain(words);
    expect(page).toMatch(new RegExp(`<a href="#${mistakeId('A')}">${words.replace(/[.()]/g, '\\$&')}`));
  });

  it('ranks a failing submission with no named mistake, and lets the filter find it', () => {
    const { hint: _, ...unhinted } = mismatch.failure!;
    const unnamed = report('register-tools', [{ ...mismatch, name: 'z', failure: unhinted }]);
    const withUnnamed: ClassReport = {
      ...CLASS,
      submissions: [
        ...CLASS.submissions,
        { name: 'e', dir: '/c/e', verdict: 'fail', passed: 0, failed: 1, report: unnamed },
      ],
    };
    const page = renderClassHtml(withUnnamed);
    expect(page).toMatch(/<tr id="unnamed" data-mistake-row="unnamed">[\s\S]*?<a href="#s-5">e<\/a>/);
    expect(page).toContain('<option value="unnamed">Failed without a mistake the grader could name');
    expect(page).toMatch(/<tr data-name="e" data-verdict="fail" data-mistakes="unnamed">/);
  });

  it('shows the score distribution, its mean and its median', () => {
    const page = renderClassHtml(CLASS);
    expect(page).toContain(
      'Mean <strong>0.0%</strong>, median <strong>0.0%</strong> of the points, over 4 submissions.',
    );
    expect(page).toMatch(/<tr><td>0–9%<\/td><td class="num">4<\/td>/);
  });
});
