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
  'html head meta title style body header main h1 h2 h3 h4 h5 p ul li strong span code pre a div table thead tbody tr th td details summary meter section label input select option button'.split(
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
    expect(page).toMatch(/<h2 id="not-started">[\s\S]*<a href="#s-4">d<\/a>[\s\S]*\/c\/d has no program\.ts\./);
    for (const tag of tagsOf(page)) expect(OWN_TAGS, tag).toContain(tag);
  });
});
