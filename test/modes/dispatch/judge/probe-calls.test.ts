// The probe's calls come from the contract: every name and alias, each key with a value no other key of its call
// has, the edge values and the names outside the contract of every class.
import { expect, it } from 'vitest';
import { KNOWN_NAMES, METHODS, nameClass } from '../../../../src/course/dispatcher-contract.ts';
import { EDGED_TEXT, expectedAnswer, probeRequest, probes } from '../../../../src/modes/dispatch/judge/probe-calls.ts';
import { LONG_ANSWER_LENGTH } from '../../../../src/modes/dispatch/long-answer.ts';

it('probes every name and alias of the contract, each with every key sent', () => {
  for (const name of KNOWN_NAMES) {
    const full = probes().find((p) => p.tool === name && p.vary.kind === 'full');
    expect(full, name).toBeDefined();
  }
  for (const contract of Object.values(METHODS)) {
    const full = probes().find((p) => p.tool === contract.names[0] && p.vary.kind === 'full')!;
    expect(Object.keys(full.input).sort()).toEqual([...contract.keys].sort());
  }
});

it('gives every key of a call a value no other key of that call has, so an argument tells where it came from', () => {
  for (const probe of probes()) {
    const values = Object.values(probe.input)
      .filter((v) => v !== '' && v !== 0 && v !== null)
      .map((v) => JSON.stringify(v));
    expect(new Set(values).size, JSON.stringify(probe)).toBe(values.length);
  }
});

it.each([
  [
    'each key empty',
    (p: ReturnType<typeof probes>[number]) => p.vary.kind === 'falsy' && p.tool === 'Bash' && p.input.timeout === 0,
  ],
  [
    'an optional key null',
    (p: ReturnType<typeof probes>[number]) =>
      p.vary.kind === 'null' && p.tool === 'view' && p.input.view_range === null,
  ],
  [
    'the fallback key alone',
    (p: ReturnType<typeof probes>[number]) =>
      p.vary.kind === 'absent' && !('insert_text' in p.input) && 'new_str' in p.input,
  ],
  [
    'misread key names beside the right ones',
    (p: ReturnType<typeof probes>[number]) =>
      p.vary.kind === 'misread' && 'old_string' in p.input && 'old_str' in p.input,
  ],
  [
    "echo's text with spaces and line breaks around it",
    (p: ReturnType<typeof probes>[number]) => p.tool === 'echo' && p.input.text === EDGED_TEXT,
  ],
])('sends %s', (_, wanted) => {
  expect(probes().some(wanted)).toBe(true);
});

it('sends names outside the contract of every class', () => {
  const classes = new Set(
    probes()
      .filter((p) => p.vary.kind === 'unknown')
      .map((p) => nameClass(p.tool)),
  );
  expect([...classes].sort()).toEqual(['case', 'other', 'prototype', 'spaced']);
});

it('answers with content alone where only the required keys are sent or the answer is long, an error without an exit code where keys are misread or edged, and every field elsewhere; each content ends in a line break', () => {
  for (const p of probes()) {
    const kind = p.vary.kind;
    const fields =
      kind === 'required' || kind === 'long'
        ? ['content']
        : kind === 'misread' || kind === 'edged'
          ? ['content', 'is_error']
          : ['content', 'exit_code', 'is_error'];
    expect(Object.keys(p.answer).sort(), JSON.stringify(p)).toEqual(fields);
    expect(p.answer.content.endsWith('\n'), JSON.stringify(p)).toBe(true);
  }
});

it('sends each path once with ./ in front, and asks for an answer longer than any output of the Tools per name', () => {
  for (const [method, contract] of Object.entries(METHODS)) {
    for (const name of contract.names) {
      const own = probes().filter((p) => p.tool === name);
      const dotted = own.filter((p) => p.vary.kind === 'dotted').map((p) => p.input.path);
      expect(dotted, name).toEqual(contract.keys.includes('path') ? ['./probe-path'] : []);
      const long = own.filter((p) => p.vary.kind === 'long');
      expect(
        long.map((p) => p.long),
        method,
      ).toEqual([LONG_ANSWER_LENGTH]);
      expect(expectedAnswer(long[0]!).content).toHaveLength(LONG_ANSWER_LENGTH);
    }
  }
  const sent = probeRequest().calls.filter((c) => c.long !== undefined);
  expect(sent.every((c) => c.answer.content.length < 100)).toBe(true);
});

it('sends program.ts the methods and the calls, in the same order as the plan', () => {
  const request = probeRequest();
  expect(request.methods).toEqual(Object.keys(METHODS));
  expect(request.calls.map((c) => c.tool)).toEqual(probes().map((p) => p.tool));
});
