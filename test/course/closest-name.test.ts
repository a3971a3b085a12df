// The known name a mistyped one most likely meant.
import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/course/closest-name.ts';

const STAGES = ['agent-loop', 'register-tools', 'plan-loop'];

describe('closestName', () => {
  it.each<[string, string | undefined]>([
    ['agent-lop', 'agent-loop'],
    ['agnet-loop', 'agent-loop'],
    ['Agent-Loop', 'agent-loop'],
    ['REGISTER-TOOLS', 'register-tools'],
    ['agent-loop', undefined],
    ['basic', undefined],
  ])('%s → %s', (typed, meant) => {
    expect(closestName(typed, STAGES)).toBe(meant);
  });
});
