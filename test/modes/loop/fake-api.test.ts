// The fake Messages API's answer to the request after the last turn: a case's API error, once, then the error that
// says the script is over.
import { describe, expect, it } from 'vitest';
import { type LoopCase, openFakeApi } from '../../../src/modes/loop/fake-api.ts';

const testCase: LoopCase = {
  request: { model: 'm', max_tokens: 10, tools: [], messages: [{ role: 'user', content: 'Hi.' }] },
  turns: [{ message: { content: [{ type: 'text', text: 'Hello.' }], stop_reason: 'end_turn' } }],
  outputs: {},
  api_error: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
};
const post = { method: 'POST', url: '/v1/messages', body: JSON.stringify({ model: 'm', messages: [] }) };

async function answers(scripted: LoopCase, n: number) {
  const api = openFakeApi(scripted);
  const all = [];
  for (let k = 0; k < n; k += 1) all.push(await api.http(post));
  return all;
}

describe('openFakeApi: api_error', () => {
  it("answers the request after the last turn with the case's status and the API's error body", async () => {
    const [, second] = await answers(testCase, 2);
    expect(second).toEqual({
      status: 529,
      type: 'application/json',
      body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
  });

  it('answers a request after the API error as past the end of the script', async () => {
    const third = (await answers(testCase, 3))[2];
    expect(third?.status).toBe(400);
    expect(JSON.parse(third?.body ?? '{}').error.message).toBe(
      "theinference: request 3 is past the end of the script (1 turn, then request 2's API error): an API error the SDK throws leaves the loop",
    );
  });

  it('answers the request after the last turn as past the end when the case has no API error', async () => {
    const { api_error: _, ...plain } = testCase;
    expect((await answers(plain as LoopCase, 2))[1]?.status).toBe(400);
  });
});
