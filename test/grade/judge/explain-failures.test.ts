// Failures put under the finding that explains them; the rest keep their own hint.
import { expect, it } from 'vitest';
import type { Call } from '../../../src/course/types.ts';
import { explainFailures } from '../../../src/grade/judge/explain-failures.ts';
import type { Finding } from '../../../src/grade/judge/finding.ts';
import { STUB_CAUSE } from '../../../src/grade/judge/hints.ts';
import type { CaseResult, Failure } from '../../../src/grade/types.ts';

const call = (tool: string, input: Record<string, unknown> = {}): Call => ({ tool, input });
const result = (name: string, failure?: Failure): CaseResult => ({
  name,
  description: '',
  status: failure === undefined ? 'pass' : 'fail',
  durationMs: 1,
  output: '',
  ...(failure === undefined ? {} : { failure }),
});
const mismatch = (c: Call, callIndex = 0, hint?: string): Failure => ({
  kind: 'mismatch',
  message: 'differs',
  call: c,
  callIndex,
  expected: { content: 'a' },
  received: { content: 'b' },
  ...(hint === undefined ? {} : { hint, hintCause: hint }),
});
const finding = (cause: string, rank: number, names: string[]): Finding => ({
  cause,
  text: `hint of ${cause}`,
  rank,
  triggers: [{ names }],
});
const FINDINGS = [finding('routed', 2, ['view']), finding('args', 8, ['view', 'insert'])];
const CALLS = new Map([
  ['after-insert', [call('insert'), call('view')]],
  ['read', [call('Read')]],
]);
const explain = (results: CaseResult[]) => explainFailures(results, FINDINGS, (n) => CALLS.get(n));

it('gives a failure the first finding that breaks its differing call, and its cause', () => {
  const [r] = explain([result('v', mismatch(call('view'), 0, 'your Tools word this error differently'))]);
  expect([r?.failure?.hint, r?.failure?.hintCause]).toEqual(['hint of routed', 'finding: routed']);
});

it('falls back on a finding that broke an earlier call of the case, whose effect shows in the later one', () => {
  const [r] = explain([result('after-insert', mismatch(call('Grep'), 1))]);
  expect(r?.failure?.hint).toBe('hint of args');
});

it('leaves alone a failure no finding explains, and every pass', () => {
  const failed = result('read', mismatch(call('Read'), 0, 'the result-based hint'));
  expect(explain([failed, result('p')])).toEqual([failed, result('p')]);
});

it('puts a failure no finding explains under the finding of one that shares its first difference', () => {
  const explained = { ...mismatch(call('view')), difference: 'content trimmed' };
  const same = { ...mismatch(call('Grep')), difference: 'content trimmed' };
  const other = { ...mismatch(call('Grep')), difference: 'content cut short' };
  const [, r, o] = explain([result('v', explained), result('g', same), result('h', other)]);
  expect([r?.failure?.hint, r?.failure?.hintCause]).toEqual(['hint of routed', 'finding: routed']);
  expect(o?.failure?.hint).toBeUndefined();
});

it('leaves alone a failure before any case, and one that is not about a call', () => {
  const early = result('e', { kind: 'crash', message: 'x', call: call('view'), beforeAnyCase: true });
  const bad = result('b', { kind: 'bad-output', message: 'x' });
  expect(explain([early, bad])).toEqual([early, bad]);
});

it("keeps the stub's hint: every tool unwired is the one mistake of a stub not yet written", () => {
  const stub: Failure = { ...mismatch(call('view')), hint: 'src/execute.ts is still the stub', hintCause: STUB_CAUSE };
  expect(explain([result('v', stub)])).toEqual([result('v', stub)]);
});

it("keeps a variant's hint: the case passed as written, so no wiring mistake explains its variant", () => {
  const variant: Failure = { ...mismatch(call('view')), hint: 'the case passes as written', variant: { seed: 7 } };
  expect(explain([result('v', variant)])).toEqual([result('v', variant)]);
});

it('without findings, returns the results as they are', () => {
  const results = [result('v', mismatch(call('view')))];
  expect(explainFailures(results, [], () => undefined)).toBe(results);
});
