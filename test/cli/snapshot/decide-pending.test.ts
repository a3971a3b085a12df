// Which pending snapshots --accept, --reject, --accept-all and --reject-all decide, checked before anything is
// touched.
import { describe, expect, it } from 'vitest';
import { planDecisions } from '../../../src/cli/snapshot/decide-pending.ts';
import { HarnessError } from '../../../src/errors.ts';

const pending = ['edit-a', 'edit-b', 'view-a'];
const none = { accept: [], reject: [], only: [] };

describe('planDecisions', () => {
  it.each([
    [
      'names',
      { ...none, accept: ['view-a'], reject: ['edit-b'] },
      [
        ['edit-b', 'rejected'],
        ['view-a', 'accepted'],
      ],
    ],
    [
      'globs',
      { ...none, accept: ['edit-*'] },
      [
        ['edit-a', 'accepted'],
        ['edit-b', 'accepted'],
      ],
    ],
    [
      'all',
      { ...none, all: 'reject' as const },
      [
        ['edit-a', 'rejected'],
        ['edit-b', 'rejected'],
        ['view-a', 'rejected'],
      ],
    ],
    ['all within --case', { ...none, all: 'accept' as const, only: ['view-*'] }, [['view-a', 'accepted']]],
  ])('%s', (_, decisions, expected) => {
    expect(planDecisions(pending, decisions, 'demo').map((d) => [d.name, d.decision])).toEqual(expected);
  });

  it.each([
    ['a name with no pending file', { ...none, reject: ['edit-c'] }, "--reject 'edit-c': no pending snapshot"],
    [
      'a case both accepted and rejected',
      { ...none, accept: ['edit-*'], reject: ['edit-a'] },
      'edit-a: both accepted and rejected',
    ],
    ['all of nothing', { ...none, all: 'accept' as const, only: ['grep-*'] }, "matching 'grep-*': nothing to accept"],
  ])('refuses %s', (_, decisions, message) => {
    expect(() => planDecisions(pending, decisions, 'demo')).toThrow(HarnessError);
    expect(() => planDecisions(pending, decisions, 'demo')).toThrow(message);
  });
});
