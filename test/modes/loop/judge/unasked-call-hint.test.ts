// A loop that ended as the script has it, having called execute for what no tool_use asked for (the end's
// `unasked_calls`): the case's message names the calls, and the hint says a cut-off turn's tools were run only
// when the call is that turn's tool_use's and no tool_use turn's.
import { describe, expect, it } from 'vitest';
import type { Case } from '../../../../src/course/types.ts';
import type { LoopCaseData } from '../../../../src/modes/loop/case.ts';
import { compareLoop } from '../../../../src/modes/loop/judge/compare-loop.ts';
import { answer, assistant1, loopCase, prompt, request, results1 } from './loop-fixture.ts';

// The fixture's case with its last turn cut off by max_tokens while it wrote a Bash call.
const bash = { type: 'tool_use', id: 'toolu_c', name: 'Bash', input: { command: 'ls' } };
const [first, last] = loopCase.data.turns;
const cutOff: Case<LoopCaseData> = {
  ...loopCase,
  data: {
    ...loopCase.data,
    turns: [first!, { message: { ...last!.message, content: [answer, bash], stop_reason: 'max_tokens' } }],
  },
};
const requests = [request([prompt]), request([prompt, assistant1, results1])];
const end = { returned: [prompt, assistant1, results1, { role: 'assistant', content: [answer, bash] }] };
const expected = [...requests, end];
const ls = { tool: 'Bash', input: { command: 'ls' } };
const pwd = { tool: 'Bash', input: { command: 'pwd' } };
const ending = (extra: Record<string, unknown>) => compareLoop(cutOff, expected, [...requests, { ...end, ...extra }]);

describe('a call no tool_use asked for, its answer sent nowhere', () => {
  it("names the cut-off turn's tool_use it ran", () => {
    const failure = ending({ unasked_calls: [ls] });
    expect(failure?.message).toBe(
      'runLoop made a call of execute that no tool_use waiting for a result asked for, its answer in nothing it sent or returned: execute("Bash", {"command":"ls"})',
    );
    expect(failure?.hint).toBe(
      'execute was called for tool_use toolu_c of turn 2, whose stop_reason is "max_tokens", as execute("Bash", {"command":"ls"}), and its answer went nowhere: a turn that stops otherwise than "tool_use" ends the loop, its tools are not run; look at stop_reason right after appending the model\'s turn, and return there, before running any tool',
    );
    expect(failure?.hintCause).toBe('ran the tools of a turn that ends the loop');
  });

  it('names every such call, and the first cut-off one in the hint', () => {
    const failure = ending({
      unasked_calls: [pwd, ls],
    });
    expect(failure?.message).toBe(
      'runLoop made 2 calls of execute that no tool_use waiting for a result asked for, their answers in nothing it sent or returned: execute("Bash", {"command":"pwd"}), execute("Bash", {"command":"ls"})',
    );
    expect(failure?.hint).toMatch(/^execute was called for tool_use toolu_c of turn 2,/);
  });

  it('says so beside a changed request too', () => {
    const failure = ending({ request_changed: { model: 'x' }, unasked_calls: [ls] });
    expect(failure?.hintCause).toBe('ran the tools of a turn that ends the loop');
  });

  it.each([
    [
      'a tool_use turn asked for it too (a call made twice)',
      { tool: 'Read', input: { path: 'a.txt' } },
      'execute("Read", {"path":"a.txt"})',
    ],
    ['no turn asked for it', pwd, 'execute("Bash", {"command":"pwd"})'],
    ['it was given no input', { tool: 'Bash' }, 'execute("Bash", undefined)'],
  ])('says only what was called when %s', (_, call, text) => {
    const failure = ending({ unasked_calls: [call] });
    expect(failure?.hint).toBe(
      `execute was called as ${text}, which no tool_use waiting for a result asked for, and its answer is in nothing runLoop sent or returned: call execute once for each tool_use block of a turn whose stop_reason is "tool_use", as execute(block.name, block.input), and send back what it returns`,
    );
    expect(failure?.hintCause).toBe('execute called for no tool_use');
  });

  it('is not the hint when the conversation differs too', () => {
    const failure = compareLoop(cutOff, expected, [
      ...requests,
      { returned: end.returned.slice(0, 3), unasked_calls: [ls] },
    ]);
    expect(failure?.hintCause).not.toBe('ran the tools of a turn that ends the loop');
  });
});
