// A case is judged by its stage's mode's judge: the loop judge for agent-loop, the dispatch judge for the rest.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../src/course/stages.ts';
import { judge as dispatchJudge } from '../../../src/modes/dispatch/judge.ts';
import { judge as loopJudge } from '../../../src/modes/loop/judge.ts';
import { judgeOf } from '../../../src/grade/judge/mode-judges.ts';
import { judge as taskJudge } from '../../../src/modes/task/judge.ts';
import { apiErrorCase, apiErrorExpected, expected, loopCase } from '../../modes/loop/judge/loop-fixture.ts';

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

  it('takes a loop that threw the API error of a case that has one, after the request it answers', () => {
    expect(loopJudge.unsnapshottable(apiErrorCase, apiErrorExpected)).toBeUndefined();
  });

  it('refuses a loop that returned though the case has an API error', () => {
    const returned = [...apiErrorExpected.slice(0, 2), { returned: [] }];
    expect(loopJudge.unsnapshottable(apiErrorCase, returned)).toBe(
      'the reference loop did not throw the API error of request 2: {"returned":[]}',
    );
  });

  it('refuses a loop that threw before the request the API error answers', () => {
    expect(loopJudge.unsnapshottable(apiErrorCase, [apiErrorExpected[0], apiErrorExpected[2]])).toBe(
      'the reference loop sent 1 requests for 1 turns and the API error of request 2',
    );
  });

  it("holds a task case's API error to the same", () => {
    const task = { ...apiErrorCase, stage: 'delegate-task' };
    expect(taskJudge.unsnapshottable(task, apiErrorExpected)).toBeUndefined();
    expect(taskJudge.unsnapshottable(task, [...apiErrorExpected.slice(0, 2), { returned: [] }])).toMatch(
      /^the reference loop did not throw the API error of request 2/,
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

describe('steps', () => {
  it('counts the request an API error answers as a step, in the loop and task judges', () => {
    const task = { ...apiErrorCase, stage: 'delegate-task' };
    expect([loopJudge.steps(apiErrorCase), taskJudge.steps(task)]).toEqual([2, 2]);
  });
});
