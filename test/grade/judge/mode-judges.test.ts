// A case is judged by its stage's mode's judge: the loop judge for agent-loop, the dispatch judge for the rest.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../src/course/stages.ts';
import { judge as dispatchJudge } from '../../../src/modes/dispatch/judge.ts';
import { judge as loopJudge } from '../../../src/modes/loop/judge.ts';
import { judgeOf } from '../../../src/grade/judge/mode-judges.ts';
import { expected, loopCase } from '../../modes/loop/judge/loop-fixture.ts';

describe('judgeOf', () => {
  it("picks each stage's mode's judge, and dispatch's for a stage the course does not list", () => {
    expect(judgeOf({ stage: 'agent-loop' })).toBe(loopJudge);
    expect(judgeOf({ stage: 'register-tools' })).toBe(dispatchJudge);
    expect(judgeOf({ stage: 'somewhere-else' })).toBe(dispatchJudge);
    for (const { slug } of STAGES) expect(judgeOf({ stage: slug })).toBeDefined();
  });
});

describe('unsnapshottable', () => {
  it('takes a loop that returned after one request per turn, and refuses any other', () => {
    expect(loopJudge.unsnapshottable(loopCase, expected)).toBeUndefined();
    expect(loopJudge.unsnapshottable(loopCase, [expected[0], expected[2]])).toBe(
      'the reference loop sent 1 requests for 2 turns',
    );
    expect(loopJudge.unsnapshottable(loopCase, [...expected.slice(0, 2), { threw: 'Error: x' }])).toBe(
      'the reference loop did not return: {"threw":"Error: x"}',
    );
  });

  it('takes one result per call for dispatch', () => {
    const c = {
      stage: 'register-tools',
      name: 'x',
      file: 'x',
      data: { description: 'd', calls: [{ tool: 'echo', input: {} }] },
    };
    expect(dispatchJudge.unsnapshottable(c, [{ content: '' }])).toBeUndefined();
    expect(dispatchJudge.unsnapshottable(c, [])).toBe('printed 0 results for 1 calls');
  });
});
