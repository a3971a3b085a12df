// The words every mode shares for a case that timed out or ended before printing its results: said of the stage's
// own export, from its row, and never in one mode's words (a dispatcher's calls and Tools, a loop's requests).
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../src/course/stages.ts';
import type { Case } from '../../../src/course/types.ts';
import { exitFailure, timeoutFailure } from '../../../src/grade/judge/ended-mid-case.ts';
import type { Failure } from '../../../src/grade/types.ts';

// A case of `stage`, its data unread here: these words know nothing of a mode's case.
const caseOf = (stage: string): Case => ({
  stage,
  name: 'c',
  file: `/cases/${stage}/c.json`,
  data: { description: 'd' },
});

// Every outcome the shared words cover, by name.
const OUTCOMES: [string, (c: Case) => Failure][] = [
  ['a timeout after loading', (c) => timeoutFailure(c, { kind: 'timeout', timeoutMs: 10_000 }, false, false)],
  ['a timeout of the first case', (c) => timeoutFailure(c, { kind: 'timeout', timeoutMs: 10_000 }, true, false)],
  ['a timeout while loading', (c) => timeoutFailure(c, { kind: 'timeout', timeoutMs: 10_000 }, true, true)],
  ['exit 1 mid-case', (c) => exitFailure(c, { kind: 'exited', code: 1, signal: null }, false)],
  ['a kill mid-case', (c) => exitFailure(c, { kind: 'exited', code: null, signal: 'SIGKILL' }, false)],
  ['exit 13 mid-case', (c) => exitFailure(c, { kind: 'exited', code: 13, signal: null }, false)],
  ['exit 13 while loading', (c) => exitFailure(c, { kind: 'exited', code: 13, signal: null }, true)],
  ['exit 0 while loading', (c) => exitFailure(c, { kind: 'exited', code: 0, signal: null }, true)],
  ['exit 1 while loading', (c) => exitFailure(c, { kind: 'exited', code: 1, signal: null }, true)],
];

// A mode's words: a dispatcher's calls and Tools, a loop's requests and turns, any stage's export.
const MODE_WORDS = /\bcalls?\b|Tools|makeExecute|request|turn|tool_use|run\w*Loop/;

const text = (f: Failure): string => `${f.message} ${f.hint ?? ''}`;

describe.each([...STAGES.map((s) => [s.slug, s.entry] as const), ['word-count', undefined] as const])(
  'at %s',
  (slug, entry) => {
    it.each(OUTCOMES)("words %s in no mode's words but the stage's own export", (_, outcome) => {
      const words = text(outcome(caseOf(slug)));
      expect(entry === undefined ? words : words.replaceAll(`\`${entry}\``, ''), words).not.toMatch(MODE_WORDS);
    });

    it.each(OUTCOMES.filter(([what]) => /mid-case|after loading|first case/.test(what) && !/kill|exit 1/.test(what)))(
      'names where to look for %s: the stage export and what it runs',
      (_, outcome) => {
        const where = entry === undefined ? 'in your code' : `\`${entry}\` or what it runs`;
        expect(outcome(caseOf(slug)).message).toContain(where);
      },
    );
  },
);

describe('the words', () => {
  const [stage] = STAGES;
  const c = caseOf(stage!.slug);
  it.each<[string, Failure, Failure]>([
    [
      'a timeout says what never ends and where, and that the process tree was killed',
      timeoutFailure(c, { kind: 'timeout', timeoutMs: 2500 }, true, false),
      {
        kind: 'timeout',
        message: `the case did not finish within 2.5 s: a loop or an \`await\` that never ends in your code (loading it, \`${stage!.entry}\` or what it runs). The program was killed with every process it started`,
      },
    ],
    [
      'an exit mid-case says how, and claims no cause',
      exitFailure(c, { kind: 'exited', code: 3, signal: null }, false),
      { kind: 'crash', message: 'the program exited with code 3 before printing results for this case' },
    ],
    [
      'exit 0 mid-case is no output',
      exitFailure(c, { kind: 'exited', code: 0, signal: null }, false),
      { kind: 'no-output', message: 'the program exited with code 0 before printing results for this case' },
    ],
    [
      'exit 13 mid-case is a promise that never settled in the stage export',
      exitFailure(c, { kind: 'exited', code: 13, signal: null }, false),
      {
        kind: 'crash',
        message: `a promise never settled in your code (\`${stage!.entry}\` or what it runs): an \`await\` on something that never resolves. Node exited with code 13 when nothing was left to run, before printing results for this case`,
      },
    ],
  ])('%s', (_, got, want) => {
    expect(got).toEqual(want);
  });
});
