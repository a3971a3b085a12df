// A run that graded earlier stages too (--previous), in every reporter: each stage apart, the run's counts over all
// of them once, and a one-stage run exactly as before.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { XMLParser } from 'fast-xml-parser';
import { Parser, type FinalResults } from 'tap-parser';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/grade/report/index.ts';
import type { RunReport } from '../../../src/grade/types.ts';
import { mismatch, pass } from './reports.ts';

const require = createRequire(import.meta.url);

const loop: RunReport = {
  stage: 'agent-loop',
  dir: '/course',
  cases: [pass('tools-single-call'), { ...mismatch, name: 'stop-refusal' }],
  passed: 1,
  failed: 1,
  durationMs: 900,
};
const tools: RunReport = {
  stage: 'register-tools',
  dir: '/course',
  cases: [pass('echo-returns-text'), pass('read-routes-to-view')],
  passed: 2,
  failed: 0,
  durationMs: 1200,
};
const both: RunReport = { ...tools, previous: [loop] };
const render = (name: Parameters<typeof renderReport>[0], report: RunReport, rerunCommand?: string) =>
  renderReport(name, report, { color: false, ...(rerunCommand === undefined ? {} : { rerunCommand }) });

describe('a run of two stages', () => {
  it('pretty: each stage under its name, its own counts, then the run counts once', () => {
    const text = render('pretty', both, 'npx theinference test --stage agent-loop --case stop-refusal');
    const current = text.indexOf('═══ register-tools "Register the toolset" (this stage) ═══');
    const earlier = text.indexOf('═══ agent-loop "Run the loop" (an earlier stage) ═══');
    expect(current).toBeGreaterThanOrEqual(0);
    expect(earlier).toBeGreaterThan(current);
    expect(text.indexOf('✗ stop-refusal')).toBeGreaterThan(earlier);
    expect(text).toContain(' Stage  agent-loop\n Cases  1 failed | 1 passed (2)');
    expect(text.match(/^\d+ passed, \d+ failed$/gm)).toEqual(['3 passed, 1 failed']);
    expect(text).toContain(' Stages register-tools ✓ | agent-loop ✗\n');
    expect(
      text.endsWith('Re-run just the failures:\nnpx theinference test --stage agent-loop --case stop-refusal\n'),
    ).toBe(true);
  });

  it("json: Exercism's version 3, each test's task_id its stage's place in the course", () => {
    const report = JSON.parse(render('json', both));
    expect(report).toMatchObject({ version: 3, status: 'fail', stage: 'register-tools', passed: 3, failed: 1 });
    expect(report.stages).toEqual([
      { stage: 'register-tools', task_id: 2, passed: 2, failed: 0 },
      { stage: 'agent-loop', task_id: 1, passed: 1, failed: 1 },
    ]);
    expect(report.tests.map((t: { name: string; task_id: number }) => [t.task_id, t.name])).toEqual([
      [2, 'register-tools: echo-returns-text'],
      [2, 'register-tools: read-routes-to-view'],
      [1, 'agent-loop: tools-single-call'],
      [1, 'agent-loop: stop-refusal'],
    ]);
  });

  it('junit: one testsuite per stage, the totals over both', () => {
    const xml = new XMLParser({ ignoreAttributes: false }).parse(render('junit', both));
    const suites = xml.testsuites.testsuite as { '@_name': string; '@_tests': string; '@_failures': string }[];
    expect(suites.map((s) => [s['@_name'], s['@_tests'], s['@_failures']])).toEqual([
      ['register-tools', '2', '0'],
      ['agent-loop', '2', '1'],
    ]);
    expect([xml.testsuites['@_tests'], xml.testsuites['@_failures'], xml.testsuites['@_time']]).toEqual([
      '4',
      '1',
      '0.175000',
    ]);
  });

  it('tap: one flat plan of every case, named <stage>: <case>, that a strict parser reads, and the counts last', () => {
    const text = render('tap', both);
    const parser = new Parser({ strict: true });
    const extra: string[] = [];
    let final: FinalResults | undefined;
    parser.on('extra', (e: string) => extra.push(e));
    parser.on('complete', (f: FinalResults) => (final = f));
    parser.end(text);
    expect(extra).toEqual([]);
    expect(final).toMatchObject({ count: 4, pass: 3, fail: 1, plan: { start: 1, end: 4 } });
    expect(text).toContain(
      '# agent-loop: 1 passed, 1 failed\nok 3 - agent-loop: tools-single-call\nnot ok 4 - agent-loop: stop-refusal\n',
    );
    expect(text.endsWith('\n# 3 passed, 1 failed\n')).toBe(true);
  });

  it('tap, through tap-junit: every case a testcase', () => {
    const xml = execFileSync('node', [require.resolve('tap-junit/bin/tap-junit'), '-s', 'theinference'], {
      input: render('tap', both),
    }).toString();
    const suites = new XMLParser({ ignoreAttributes: false }).parse(xml).testsuites;
    expect([suites['@_tests'], suites['@_failures']]).toEqual(['4', '1']);
    const names = [suites.testsuite.testcase].flat().map((c: { '@_name': string }) => c['@_name']);
    expect(names).toEqual([
      'register-tools: echo-returns-text',
      'register-tools: read-routes-to-view',
      'agent-loop: tools-single-call',
      'agent-loop: stop-refusal',
    ]);
  });

  it('github: annotations and groups name the stage, a summary part per stage, the counts once', () => {
    const text = render('github', both);
    expect(text).toContain('::error file=src/agent-loop.ts,title=agent-loop%3A stop-refusal::');
    expect(text).toContain('::group::FAIL agent-loop: stop-refusal');
    expect(text).toContain(
      '| register-tools: all 2 cases passed (1.20 s)\n| agent-loop: 1 of 2 cases failed (0.90 s)\n',
    );
    expect(text.endsWith('\n3 passed, 1 failed\n')).toBe(true);
  });
});

describe('a run of two stages, the totals', () => {
  it('gradescope: a test per case of every stage named for its stage, the score and counts over both', () => {
    const results = JSON.parse(render('gradescope', both));
    expect(results.tests.map((t: { name: string; status: string }) => [t.name, t.status])).toEqual([
      ['register-tools: echo-returns-text', 'passed'],
      ['register-tools: read-routes-to-view', 'passed'],
      ['agent-loop: tools-single-call', 'passed'],
      ['agent-loop: stop-refusal', 'failed'],
    ]);
    expect([results.score, results.max_score, results.execution_time]).toEqual([3, 4, 2.1]);
    expect(results.extra_data).toEqual({
      stage: 'register-tools',
      passed: 3,
      failed: 1,
      seed: null,
      stages: [
        { stage: 'register-tools', task_id: 2, passed: 2, failed: 0 },
        { stage: 'agent-loop', task_id: 1, passed: 1, failed: 1 },
      ],
    });
    expect(results.output).toBe('register-tools: 2 of 2 cases passed\nagent-loop: 1 of 2 cases passed');
  });

  it("json: a stage whose program did not start still counts the other stage's cases", () => {
    const broken = { kind: 'crash' as const, message: 'src/execute.ts does not compile', beforeAnyCase: true };
    const notStarted: RunReport = {
      ...tools,
      cases: tools.cases.map((c) => ({ ...c, status: 'fail' as const, failure: broken })),
      passed: 0,
      failed: 2,
    };
    const report = JSON.parse(render('json', { ...notStarted, previous: [loop] }));
    expect(report).toMatchObject({ version: 3, status: 'fail', passed: 1, failed: 3 });
    expect(report.tests).toHaveLength(4);
  });

  it.each(['json', 'junit', 'tap', 'github', 'gradescope'] as const)('%s agrees with the others', (name) => {
    const text = render(name, both);
    const counts: Record<typeof name, () => [number, number]> = {
      json: () => {
        const r = JSON.parse(text);
        return [r.passed, r.failed];
      },
      junit: () => {
        const x = new XMLParser({ ignoreAttributes: false }).parse(text).testsuites;
        return [Number(x['@_tests']) - Number(x['@_failures']) - Number(x['@_errors'] ?? 0), Number(x['@_failures'])];
      },
      tap: () => {
        const [, p, f] = /# (\d+) passed, (\d+) failed\n$/.exec(text)!;
        return [Number(p), Number(f)];
      },
      github: () => {
        const [, p, f] = /\n(\d+) passed, (\d+) failed\n$/.exec(text)!;
        return [Number(p), Number(f)];
      },
      gradescope: () => {
        const r = JSON.parse(text).extra_data;
        return [r.passed, r.failed];
      },
    };
    expect(counts[name]()).toEqual([3, 1]);
  });
});

describe('a run of one stage', () => {
  it.each(['pretty', 'json', 'junit', 'tap', 'github', 'gradescope'] as const)(
    '%s: the same with no earlier stage as without',
    (name) => {
      expect(render(name, { ...tools, previous: [] })).toBe(render(name, tools));
    },
  );
});
