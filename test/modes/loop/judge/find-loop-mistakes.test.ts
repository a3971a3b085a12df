// The loop probe's findings: each script's run compared with what the contract makes of it, one finding per mistake
// in the order the scripts found them; nothing from an observation that is malformed or shows nothing of the loop.
import { expect, test } from 'vitest';
import { contractRun } from '../../../../src/modes/loop/judge/contract-run.ts';
import { findLoopMistakes } from '../../../../src/modes/loop/judge/find-loop-mistakes.ts';
import { finishOrder } from '../../../../src/modes/loop/judge/loop-features.ts';
import { PROBE_SCRIPTS } from '../../../../src/modes/loop/judge/probe-scripts.ts';

type Json = Record<string, any>;
// What program.ts's loop probe prints for a loop that keeps the contract, each script's results changed by `edit`
// (the requests and the end, as results).
const observed = (edit: (results: Json[], k: number) => Json[] = (r) => r): unknown =>
  PROBE_SCRIPTS.map((script, k) => {
    const results = edit(structuredClone(contractRun(script)) as Json[], k);
    return { requests: results.slice(0, -1), end: results.at(-1) };
  });
const scriptIndex = (description: string) => PROBE_SCRIPTS.findIndex((s) => s.description === description);
const ERROR_SCRIPT = scriptIndex('an output with is_error');
const PARALLEL_SCRIPT = scriptIndex('text and two tool calls in one turn');

// Every message of every request and of the returned conversation, changed by `f`.
const everyMessage = (results: Json[], f: (messages: Json[]) => Json[]): Json[] =>
  results.map((entry) => {
    if (entry.request !== undefined) return { request: { ...entry.request, messages: f(entry.request.messages) } };
    return entry.returned === undefined ? entry : { returned: f(entry.returned) };
  });
const withoutIsError = (messages: Json[]) =>
  messages.map((m) =>
    Array.isArray(m.content) ? { ...m, content: m.content.map(({ is_error, ...block }: Json) => block) } : m,
  );
// Each tool_result in a user message of its own.
const splitResults = (messages: Json[]) =>
  messages.flatMap((m) =>
    m.role === 'user' && Array.isArray(m.content) && m.content.length > 1
      ? m.content.map((block: Json) => ({ role: 'user', content: [block] }))
      : [m],
  );
const causes = (payload: unknown) => findLoopMistakes(payload).map((f) => [f.cause, f.shows, f.rank]);

test('a loop that keeps the contract: no findings', () => {
  expect(findLoopMistakes(observed())).toEqual([]);
});

test.each<[string, unknown]>([
  ['not an array', { error: 'the request is not { scripts }' }],
  ['one script short', (observed() as unknown[]).slice(1)],
  ['an entry without requests', (observed() as Json[]).map((s, k) => (k === 0 ? { end: s.end } : s))],
  [
    'every script threw the same (the stub)',
    PROBE_SCRIPTS.map(() => ({ requests: [], end: { threw: 'Error: runLoop is not written yet' } })),
  ],
])('%s: no findings', (_, payload) => {
  expect(findLoopMistakes(payload)).toEqual([]);
});

test('is_error dropped, seen in the script whose output has it', () => {
  const payload = observed((r, k) => (k === ERROR_SCRIPT ? everyMessage(r, withoutIsError) : r));
  expect(causes(payload)).toEqual([['is_error dropped', 'error-output', 0]]);
});

test('one mistake seen in several scripts is one finding', () => {
  // is_error: false on every result without one: the scripts of one call, two calls and a thinking block all show it.
  const isErrorFalse = (messages: Json[]) =>
    messages.map((m) =>
      Array.isArray(m.content)
        ? { ...m, content: m.content.map((b: Json) => (b.type === 'tool_result' ? { is_error: false, ...b } : b)) }
        : m,
    );
  expect(causes(observed((r) => everyMessage(r, isErrorFalse)))).toEqual([['is_error always set', 'tool-turn', 0]]);
});

test("is_error dropped for outputs and for throws is one habit: one finding, the throw's folded into it", () => {
  expect(causes(observed((r) => everyMessage(r, withoutIsError)))).toEqual([['is_error dropped', 'error-output', 0]]);
});

test('two mistakes: a finding each, ranked in the order of the scripts; the words for any case, not turn 1', () => {
  const payload = observed((r, k) => {
    if (k === PARALLEL_SCRIPT) return everyMessage(r, splitResults);
    return k === ERROR_SCRIPT ? everyMessage(r, withoutIsError) : r;
  });
  expect(causes(payload)).toEqual([
    ['tool results in separate user messages', 'parallel-turn', 0],
    ['is_error dropped', 'error-output', 1],
  ]);
  expect(findLoopMistakes(payload)[0]?.text).toMatch(/^the results of a turn's tool calls went in a user message each/);
});

// A run that returned after turn 1's results: request 1, then the conversation up to them.
const stopsAfterTurn1 = (r: Json[]): Json[] => [r[0]!, { returned: r[1]!.request.messages }];
// Whether turn 1's tools all fail, by the script's outputs.
const failsAll = (k: number) =>
  idsOf(k).every((id) => {
    const o = PROBE_SCRIPTS[k]!.outputs?.[id] as Json | undefined;
    return o !== undefined && ('throws' in o || o.is_error === true);
  });
const asksTools = (k: number) => PROBE_SCRIPTS[k]!.turns[0]!.message.stop_reason === 'tool_use';

test.each<[string, (k: number) => boolean, string, string]>([
  ['after every first tool turn', asksTools, 'stopped after the first tool call', 'tool-turn'],
  // The scripts side by side prove it: those whose tools did not all fail went on.
  [
    'only where its tools all failed',
    (k) => asksTools(k) && failsAll(k),
    'stopped after a turn of errors',
    'all-error-turn',
  ],
])("a loop that returns after turn 1's results %s", (_, stops, cause, shows) => {
  const payload = observed((r, k) => (stops(k) ? stopsAfterTurn1(r) : r));
  expect(causes(payload)).toEqual([[cause, shows, 0]]);
});

test('a script still pending when the probe stopped waiting shows no mistake', () => {
  const payload = (observed() as Json[]).map((s, k) =>
    k === ERROR_SCRIPT ? { requests: s.requests.slice(0, 1), end: { pending: true } } : s,
  );
  expect(findLoopMistakes(payload)).toEqual([]);
});

// What execute's calls showed, as program.ts's probe gives them: for the script's first turn, each call in the order
// made, finishing in `order` (the positions of the calls, soonest first; by their delays when not given).
const ORDER_SCRIPT = scriptIndex('three calls at once that finish out of order');
const THROW_SCRIPT = scriptIndex('a throw beside two other calls');
const UNKNOWN_SCRIPT = scriptIndex('a tool the request does not list');
const idsOf = (k: number) =>
  PROBE_SCRIPTS[k]!.turns[0]!.message.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
const callsOf = (k: number, order?: number[]) => {
  const ids = idsOf(k);
  const finish = order ?? finishOrder(ids.map((id) => PROBE_SCRIPTS[k]!.outputs?.[id]?.delay_ms ?? 0));
  return ids.map((id, j) => ({ id, finished: finish.indexOf(j) }));
};
// The first turn's results put in this order (positions of the calls), in request 2 and the conversation returned.
const resultsIn = (order: number[]) => (results: Json[]) =>
  everyMessage(results, (messages) =>
    messages.map((m, j) =>
      j === 2 && Array.isArray(m.content) ? { ...m, content: order.map((k) => m.content[k]) } : m,
    ),
  );
const withCalls = (payload: unknown, calls: (k: number) => unknown) =>
  (payload as Json[]).map((s, k) => ({ ...s, calls: calls(k) }));

test('results in the order their calls finished: proved when every script whose calls finished out of order shows it', () => {
  const byFinish = (k: number) => finishOrder(idsOf(k).map((id) => PROBE_SCRIPTS[k]!.outputs?.[id]?.delay_ms ?? 0));
  const payload = observed((r, k) => (k === ORDER_SCRIPT || k === THROW_SCRIPT ? resultsIn(byFinish(k))(r) : r));
  const timed = (k: number) => (k === ORDER_SCRIPT || k === THROW_SCRIPT ? callsOf(k) : []);
  expect(causes(withCalls(payload, timed))).toEqual([
    ['tool results in the order their calls finished', 'out-of-order-turn', 0],
  ]);
  // Without the calls (an older program.ts), what the results show: out of order.
  expect(causes(payload)).toEqual([['tool results out of order', 'parallel-turn', 0]]);
});

test('results that match the finish order in one script only (sorted some other way) are out of order, no more', () => {
  const payload = observed((r, k) => (k === ORDER_SCRIPT ? resultsIn(finishOrder([10, 20, 0]))(r) : r));
  // The other script's calls finished out of order too, and its results kept the blocks' order.
  const timed = (k: number) => (k === ORDER_SCRIPT || k === THROW_SCRIPT ? callsOf(k) : []);
  expect(causes(withCalls(payload, timed))).toEqual([['tool results out of order', 'parallel-turn', 0]]);
});

test('a tool_use answered without a call to execute: what the calls prove', () => {
  const answered = (r: Json[]) =>
    everyMessage(r, (messages) =>
      messages.map((m, j) =>
        j === 2 && Array.isArray(m.content) ? { ...m, content: [{ ...m.content[0], content: 'no such tool' }] } : m,
      ),
    );
  const payload = observed((r, k) => (k === UNKNOWN_SCRIPT ? answered(r) : r));
  const calls = (k: number) => (k === UNKNOWN_SCRIPT ? [] : callsOf(k));
  expect(causes(withCalls(payload, calls))).toEqual([['a tool_use answered without execute', 'unknown-tool-turn', 0]]);
  // A call made and refused (execute called with other arguments) proves no such thing.
  const refused = (k: number) => (k === UNKNOWN_SCRIPT ? [{ id: null, finished: 0 }] : callsOf(k));
  expect(causes(withCalls(payload, refused))).toEqual([]);
});

test('outputs kept by tool name: every script whose turn calls Read twice shows it, one finding', () => {
  // Each Read of the first turn given the output of the turn's last Read, as outputs[block.name] leaves it.
  const byName = (k: number) => (results: Json[]) => {
    const uses = PROBE_SCRIPTS[k]!.turns[0]!.message.content.filter((b) => b.type === 'tool_use');
    const last = uses.map((b) => b.name).lastIndexOf('Read');
    return everyMessage(results, (messages) =>
      messages.map((m, j) =>
        j === 2 && Array.isArray(m.content) && uses.filter((b) => b.name === 'Read').length > 1
          ? {
              ...m,
              content: m.content.map((b: Json, n: number) =>
                uses[n]?.name === 'Read' ? { ...b, content: m.content[last].content } : b,
              ),
            }
          : m,
      ),
    );
  };
  const payload = observed((r, k) => byName(k)(r));
  expect(causes(payload)).toEqual([['calls of one tool got one output', 'same-tool-turn', 0]]);
  expect(findLoopMistakes(payload)[0]?.text).toMatch(
    /^two calls of one tool in one turn got the same tool_result, the output execute gave for one of them: outputs kept by the tool's name/,
  );
});

// The first turn's results: only those at these positions, in request 2 and the conversation returned.
const resultsOnly = (kept: number[]) => resultsIn(kept);

test('the next request sent while calls of the turn still ran: what the calls prove, not a result missing', () => {
  // forEach(async …): the one call that answered at once is in the request, the two slower ones came after it.
  const payload = observed((r, k) => (k === ORDER_SCRIPT ? resultsOnly([2])(r) : r));
  const overtaken = (k: number) =>
    k === ORDER_SCRIPT ? callsOf(k).map((c) => (c.finished === 0 ? c : { ...c, overtaken: 2 })) : callsOf(k);
  expect(causes(withCalls(payload, overtaken))).toEqual([
    ['results sent before the calls finished', 'out-of-order-turn', 0],
  ]);
  // Every call done before the request: the results show only that one is missing, which only a turn of several
  // calls can show.
  expect(causes(withCalls(payload, (k) => callsOf(k)))).toEqual([['a tool_result missing', 'parallel-turn', 0]]);
});

test('a request sent while calls ran beside a throw is the mistake of the throw (Promise.all ended by it), not this', () => {
  const payload = observed((r, k) => (k === THROW_SCRIPT ? resultsOnly([0, 1])(r) : r));
  const overtaken = (k: number) =>
    k === THROW_SCRIPT ? callsOf(k).map((c) => (c.finished === 0 ? c : { ...c, overtaken: 2 })) : callsOf(k);
  expect(causes(withCalls(payload, overtaken)).map(([cause]) => cause)).not.toContain(
    'results sent before the calls finished',
  );
});

test("a throw that ended the turn: its later tool_use blocks never passed to execute, the turn's results sent", () => {
  // Calls one after another, one try/catch around them: the first answers, the second throws, the third never runs.
  const payload = observed((r, k) => (k === THROW_SCRIPT ? resultsOnly([0, 1])(r) : r));
  const stopped = (k: number) =>
    k === THROW_SCRIPT
      ? [
          { id: 'toolu_probe_beside_1', finished: 0 },
          { id: 'toolu_probe_throws', finished: 1 },
        ]
      : callsOf(k);
  expect(causes(withCalls(payload, stopped))).toEqual([['a throw ended the turn', 'throwing-output', 0]]);
  expect(findLoopMistakes(withCalls(payload, stopped))[0]?.text).toMatch(
    /^after execute threw for one tool_use, the turn's later tool_use blocks were never passed to execute: catch each call's throw on its own/,
  );
  // Every call made (all at once): what the results show instead.
  expect(causes(withCalls(payload, (k) => callsOf(k))).map(([cause]) => cause)).not.toContain('a throw ended the turn');
});

test('a loop that keeps the contract, its calls all awaited: no findings', () => {
  expect(findLoopMistakes(withCalls(observed(), (k) => callsOf(k)))).toEqual([]);
});
