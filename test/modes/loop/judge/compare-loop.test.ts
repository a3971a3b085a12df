// The loop comparison: where a loop first goes another way than the script, in one message, with the fields that
// differ as expected and received.
import { describe, expect, it } from 'vitest';
import { compareLoop, describeConversation } from '../../../../src/modes/loop/judge/compare-loop.ts';
import {
  apiErrorCase,
  apiErrorExpected,
  assistant1,
  assistant2,
  expected,
  loopCase,
  OVERLOADED,
  prompt,
  request,
  resultA,
  resultB,
  results1,
} from './loop-fixture.ts';

const compare = (received: unknown[]) => compareLoop(loopCase, expected, received);

describe('compareLoop', () => {
  it('finds nothing when the results are the snapshot', () => {
    expect(compare(structuredClone(expected))).toBeUndefined();
  });

  it('names the first request that differs and the message in it, with only the differing fields', () => {
    const failure = compare([
      expected[0],
      request([prompt, assistant1, { role: 'user', content: [resultA] }]),
      expected[2],
    ]);
    expect(failure).toMatchObject({
      kind: 'mismatch',
      callIndex: 1,
      message:
        'request 2 of 2 (after turn 1, stop_reason "tool_use") differs: its messages differ: message 3 of 3 (user) differs: "content" has 1 item, expected 2',
      expected: { messages: [prompt, assistant1, results1] },
      received: { messages: [prompt, assistant1, { role: 'user', content: [resultA] }] },
    });
  });

  it('names a field a request left out', () => {
    const { tools: _, ...without } = request([prompt, assistant1, results1]).request;
    expect(compare([expected[0], { request: without }, expected[2]])?.message).toBe(
      'request 2 of 2 (after turn 1, stop_reason "tool_use") differs: it has no "tools"',
    );
  });

  it('names a request the script does not have, and the turn that should have ended the loop', () => {
    const failure = compare([...expected.slice(0, 2), request([prompt]), { threw: 'BadRequestError: 400 …' }]);
    expect(failure?.message).toBe(
      'the loop sent request 3, but the script has 2 turns: turn 2 ended with stop_reason "end_turn", which ends the loop: it returns the conversation',
    );
    expect(failure?.callIndex).toBe(2);
  });

  it('names a request the loop never sent, and how it ended instead', () => {
    expect(compare([expected[0], { returned: [prompt, assistant1] }])?.message).toBe(
      'runLoop returned after 1 request of 2: turn 1 ended with stop_reason "tool_use": the loop runs its tools, sends their results and calls the model again',
    );
    expect(compare([{ threw: 'Error: boom' }])?.message).toBe(
      'runLoop threw ("Error: boom") without sending a request: the loop starts by calling client.messages.create({ ...request, messages })',
    );
  });

  it('names a throw in place of the conversation, and a conversation that differs', () => {
    expect(compare([...expected.slice(0, 2), { threw: 'TypeError: x' }])?.message).toBe(
      'runLoop threw instead of returning the conversation: "TypeError: x"',
    );
    const failure = compare([...expected.slice(0, 2), { returned: [prompt, assistant1, results1] }]);
    expect(failure?.message).toBe(
      'the conversation runLoop returned differs: 3 messages where 4 were expected; message 4 is missing, expected an assistant message',
    );
    expect(failure?.callIndex).toBeUndefined();
    expect(failure?.hint).toMatch(/lacks the model's last turn/);
  });
});

describe('describeConversation', () => {
  it('says which message differs and how', () => {
    expect(describeConversation([prompt, assistant2], [prompt, { role: 'assistant', content: 'A and B.' }])).toBe(
      'message 2 of 2 (assistant) differs: "content": expected an array [{"type":"text","text":"A and B."}], received a string "A and B."',
    );
    expect(
      describeConversation(
        [prompt, results1],
        [prompt, { role: 'user', content: [resultA] }, { role: 'user', content: [resultB] }],
      ),
    ).toBe('3 messages where 2 were expected; message 2 (user) differs: "content" has 1 item, expected 2');
  });
});

describe('compareLoop: a case whose last request is answered with an API error', () => {
  const returned = { returned: [prompt, assistant1, results1] };

  it('says a loop that returned where the error should have left it, and the catch behind it', () => {
    const failure = compareLoop(apiErrorCase, apiErrorExpected, [...apiErrorExpected.slice(0, 2), returned]);
    expect(failure).toMatchObject({
      message:
        'runLoop returned where the API error should have left it: request 2 was answered with HTTP 529 overloaded_error, which the SDK throws',
      hint: expect.stringMatching(
        /^a try\/catch caught the API error of request 2 \(HTTP 529 overloaded_error\), and runLoop returned the conversation instead; let it leave runLoop as the SDK threw it/,
      ),
      hintCause: 'API error caught',
    });
  });

  it('says a loop that retried after the error, not that it went on after the last turn', () => {
    const retried = [...apiErrorExpected.slice(0, 2), apiErrorExpected[1], { threw: 'BadRequestError: 400 …' }];
    const failure = compareLoop(apiErrorCase, apiErrorExpected, retried);
    expect(failure?.message).toMatch(/^runLoop sent another request after the API error: request 2 was answered/);
    expect(failure?.hint).toMatch(/^runLoop went on after the API error of request 2 \(HTTP 529 overloaded_error\)/);
  });

  it('says a loop that threw where the snapshot returned as before', () => {
    const failure = compare([...expected.slice(0, 2), { threw: OVERLOADED }]);
    expect(failure?.message).toBe(`runLoop threw instead of returning the conversation: ${JSON.stringify(OVERLOADED)}`);
  });
});
