import { expect, it } from 'vitest';
import type { KillMatrix } from '../../../src/grade/audit/kill-matrix.ts';
import { renderKillMatrix } from '../../../src/grade/audit/render-kill-matrix.ts';

const matrix: KillMatrix = {
  stage: 'register-tools',
  cases: 3,
  mistakes: [
    {
      slug: 'named',
      failed: ['a', 'b'],
      messages: [{ hint: 'route Read to tools.view', cases: ['a', 'b'] }],
      caught: true,
      named: true,
    },
    { slug: 'uncaught', failed: [], messages: [], caught: false, named: false },
    { slug: 'unhinted', failed: ['a'], messages: [{ hint: null, cases: ['a'] }], caught: true, named: false },
  ],
  kills: { a: ['named', 'unhinted'], b: ['named'], c: [] },
  unkilled: ['c'],
  uncaught: ['uncaught'],
  unnamed: ['unhinted'],
};

it('lists each mistake with its messages, then the cases and mistakes that need attention, then the counts', () => {
  expect(renderKillMatrix(matrix, { color: false, notes: ['a note'] }).split('\n')).toEqual([
    'Kill matrix of register-tools: 3 wrong dispatchers against 3 cases',
    '',
    '✓ named — fails 2 cases, one message',
    '    hint: route Read to tools.view',
    '    cases: a, b',
    '✗ uncaught — fails no case',
    '✗ unhinted — fails 1 case, one message (not named as catalogued)',
    '    hint: (none)',
    '    cases: a',
    '',
    'Cases no mistake fails (1): c',
    'Mistakes no case catches: uncaught',
    'Mistakes the report does not name (a hint that misses, or not one message per mistake): unhinted',
    'a note',
    '',
    '1 of 3 mistakes caught and named; 2 of 3 cases fail at least one mistake',
    '',
  ]);
});
