// The redact report, in record's words: a block per case, a line per case, and how many changed.
import { describe, expect, it } from 'vitest';
import { renderRedactReport, type RedactOutcome } from '../../../src/cli/redact/render-redact-report.ts';

const outcome = (name: string, o: Partial<RedactOutcome>): RedactOutcome => ({
  name,
  caseText: '',
  snapshot: null,
  pending: null,
  recording: null,
  counts: {},
  changed: false,
  results: undefined,
  leaks: [],
  status: 'unchanged',
  ...o,
});

describe('renderRedactReport', () => {
  it('says what was redacted, what the reference said, and what became of each case', () => {
    const text = renderRedactReport(
      [
        outcome('recorded-a', {
          counts: { 'e-mail address': 2 },
          changed: true,
          status: 'refused',
          why: 'the reference failed',
        }),
        outcome('recorded-b', {}),
      ],
      { stage: 'demo', color: false },
    );
    expect(text).toBe(
      [
        'cases/demo/recorded-a.json',
        '  redacted  2 e-mail addresses',
        '  refused   the reference failed',
        '',
        'cases/demo/recorded-b.json',
        '  redacted  nothing',
        '',
        'refused       cases/demo/recorded-a.json, snapshots/demo/recorded-a.json',
        'unchanged     cases/demo/recorded-b.json, snapshots/demo/recorded-b.json',
        '',
        'Nothing was written: every case is redacted, or none is.',
        '',
        'redacted: 1 of 2 recorded cases changed',
        '',
      ].join('\n'),
    );
  });

  it('says when the stage has no recorded case', () => {
    expect(renderRedactReport([], { stage: 'demo', color: false })).toContain('no recorded case in cases/demo/');
  });
});
