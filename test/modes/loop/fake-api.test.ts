// The fake Messages API's answer to the request after the last turn: a case's API error, once, then the error that
// says the script is over; and what it keeps of a case's requests, bounded in JSON values.
import { describe, expect, it } from 'vitest';
import { type LoopCase, MAX_CASE_REQUEST_VALUES, openFakeApi } from '../../../src/modes/loop/fake-api.ts';

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

describe('openFakeApi: what it keeps', () => {
  // A trial's attack: each request 8 MB of empty objects under a key of the loop's own, kept to judge, 17 times
  // its size on the grader's heap, until the grader ran out of memory.
  it("answers a request that takes the case's requests past their JSON values with 413, keeping only a line that says so", async () => {
    const api = openFakeApi(testCase);
    const half = Math.ceil(MAX_CASE_REQUEST_VALUES / 2);
    const heavy = { ...post, body: JSON.stringify({ model: 'm', messages: [], junk: Array(half).fill({}) }) };
    const answers = [await api.http(heavy), await api.http(heavy), await api.http(post)];
    expect(answers.map((a) => a.status)).toEqual([200, 413, 413]);
    expect(JSON.parse(answers[1]?.body ?? '{}').error.type).toBe('request_too_large');
    const { requests } = api.observed(null);
    const over = `POST /v1/messages, its case's requests holding over ${MAX_CASE_REQUEST_VALUES.toLocaleString('en-US')} JSON values together`;
    expect(requests.slice(1)).toEqual([{ other: over }, { other: over }]);
  });
});
