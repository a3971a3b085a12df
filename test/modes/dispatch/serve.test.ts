// The grader's side of a dispatch program's cases (serve.ts): it hands out a case at a time with at most AHEAD
// queued after the one running, refuses what is out of turn, makes each result line from what the program gave,
// and hands out the probe's request only once every case has ended.
import { describe, expect, it } from 'vitest';
import { AHEAD, serveDispatchCases } from '../../../src/modes/dispatch/serve.ts';

const line = (k: number, observe?: unknown): string =>
  JSON.stringify({
    calls: [{ tool: 'echo', input: { text: `case ${k}` } }],
    ...(observe === undefined ? {} : { observe }),
  });

// A server over `n` cases (the first carrying `observe`), and the lines it emitted, once each has gone out.
function served(n: number, observe?: unknown) {
  const emitted: string[] = [];
  const ask = serveDispatchCases(
    Array.from({ length: n }, (_, k) => line(k + 1, k === 0 ? observe : undefined)),
    (l) => emitted.push(l),
  );
  const lines = async (): Promise<unknown[]> => {
    await new Promise((done) => setImmediate(done));
    return emitted.map((l) => JSON.parse(l));
  };
  return { ask, lines };
}

describe('serveDispatchCases', () => {
  it('queues one case ahead of the one running, and no more', async () => {
    expect(AHEAD).toBe(1);
    const { ask } = served(3);
    expect(await ask({ op: 'next' })).toMatchObject({ case: '1' });
    expect(await ask({ op: 'next' })).toMatchObject({ case: '2' });
    expect(await ask({ op: 'next' })).toEqual({ error: "case 2 is queued already: give case 1's results first" });
  });

  it('takes calls and ends for the case running first only', async () => {
    const { ask } = served(3);
    await ask({ op: 'next' });
    await ask({ op: 'next' });
    expect(await ask({ op: 'calling', case: '2', call: 1 })).toEqual({ error: 'no case "2" is running' });
    expect(await ask({ op: 'end', case: '2', results: [] })).toEqual({ error: 'no case "2" is running' });
    expect(await ask({ op: 'calling', case: '1', call: 2 })).toEqual({ error: 'call 2 is not the next of case 1' });
    expect(await ask({ op: 'calling', case: '1', call: 1 })).toEqual({ ok: true });
  });

  it("answers a case's end with the case after the one queued, then `later`, then what comes once all have ended", async () => {
    const { ask, lines } = served(3, { methods: [], calls: [] });
    await ask({ op: 'next' });
    await ask({ op: 'next' });
    expect(await ask({ op: 'end', case: '1', results: ['one'], next: true })).toMatchObject({ case: '3' });
    expect(await ask({ op: 'end', case: '2', results: ['two'], next: true })).toEqual({ later: true });
    expect(await ask({ op: 'end', case: '3', results: ['three'], next: true })).toEqual({
      probe: { methods: [], calls: [] },
    });
    expect(await lines()).toEqual([{ results: ['one'] }, { results: ['two'] }, { results: ['three'] }]);
  });

  it("hands out the probe's request only once every case has ended", async () => {
    const { ask } = served(1, { methods: [], calls: [] });
    await ask({ op: 'next' });
    expect(await ask({ op: 'next' })).toEqual({ later: true });
    await ask({ op: 'end', case: '1', results: [] });
    expect(await ask({ op: 'next' })).toEqual({ probe: { methods: [], calls: [] } });
    expect(await ask({ op: 'next' })).toEqual({ done: true });
  });

  it('says all is done when no probe was asked for', async () => {
    const { ask } = served(1);
    await ask({ op: 'next' });
    expect(await ask({ op: 'end', case: '1', results: [], next: true })).toEqual({ done: true });
  });
});
