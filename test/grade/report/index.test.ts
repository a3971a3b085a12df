// Picking a reporter by name: the terminal one with colour as asked, every other format with the same
// diagnosis, uncoloured.
import { describe, expect, it } from 'vitest';
import { isReporterName, renderReport, REPORTER_NAMES } from '../../../src/grade/report/index.ts';
import { renderPretty } from '../../../src/grade/report/pretty.ts';
import { render as renderJunit } from '../../../src/grade/report/junit.ts';
import { renderFailure } from '../../../src/grade/report/render-failure.ts';
import type { RunReport } from '../../../src/grade/types.ts';

const report: RunReport = {
  stage: 'register-tools',
  dir: '/course',
  cases: [
    {
      name: 'read-a',
      description: 'Read works',
      status: 'fail',
      durationMs: 3,
      failure: {
        kind: 'mismatch',
        message: 'call 1 of 1 (Read) differs',
        call: { tool: 'Read', input: {} },
        expected: { content: 'A' },
        received: { content: 'B' },
      },
      output: '',
    },
  ],
  passed: 0,
  failed: 1,
  durationMs: 10,
};

describe('renderReport', () => {
  it('renders pretty with the options given', () => {
    expect(renderReport('pretty', report, { color: true, rerunCommand: 'x' })).toBe(
      renderPretty(report, { color: true, rerunCommand: 'x' }),
    );
  });

  it('hands other formats the uncoloured diagnosis', () => {
    const text = renderReport('junit', report, { color: true });
    expect(text).toBe(renderJunit(report, { diagnose: (c) => renderFailure(c, { color: false }) }));
    expect(text).not.toContain('\u001b[');
  });

  it.each(REPORTER_NAMES)('renders %s', (name) => {
    expect(renderReport(name, report, { color: false }).length).toBeGreaterThan(0);
  });
});

describe('isReporterName', () => {
  it.each([
    ['pretty', true],
    ['junit', true],
    ['xml', false],
  ])('%s: %s', (name, known) => {
    expect(isReporterName(name)).toBe(known);
  });
});
