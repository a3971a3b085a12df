// The words of an argument finding for one failing call: its own values where its input shows the change the probe
// saw (the case's "1" became 1), the probe's where it shows none.
import { describe, expect, it } from 'vitest';
import { makeExecute } from '../../../../src/execute.ts';
import { observe } from '../../../../src/modes/dispatch/driver.ts';
import { argumentSpecs } from '../../../../src/modes/dispatch/judge/argument-findings.ts';
import { compareProbe, splitRoutes } from '../../../../src/modes/dispatch/judge/compare-probe.ts';
import { probeRequest, probes } from '../../../../src/modes/dispatch/judge/probe-calls.ts';
import { readObservation } from '../../../../src/modes/dispatch/judge/read-observation.ts';
import type { Tools } from '../../../../src/tools/index.ts';

type Make = Parameters<typeof observe>[1];

// The reference with one branch replaced.
const withBranch = (names: string[], branch: (tools: Tools, input: any) => unknown): Make =>
  ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) =>
      names.includes(name) ? branch(tools, input) : reference(name, input);
  }) as Make;

// The argument specs of a dispatcher, from what the probe observes of it.
async function specsOf(make: Make) {
  const plan = probes();
  const payload = JSON.parse(JSON.stringify(await observe(probeRequest(), make))) as unknown;
  const entries = readObservation(payload, plan.length)!;
  const probed = new Map<string, number>();
  for (const probe of plan) probed.set(probe.tool, (probed.get(probe.tool) ?? 0) + 1);
  const facts = splitRoutes(
    plan.flatMap((probe, k) => compareProbe(probe, entries[k]!, () => false)),
    probed,
  );
  return argumentSpecs(facts).specs;
}

describe('argument findings, said with the failing call’s values', () => {
  it('quotes the case’s insert_line converted, not the probe’s', async () => {
    const make = withBranch(['insert'], (tools, input) =>
      tools.insert(input.path, Number(input.insert_line), input.insert_text),
    );
    const [spec] = await specsOf(make);
    expect(spec?.text(spec.names)).toMatch(/\("108" became 108\)/);
    const own = spec?.caseText?.(spec.names, { path: 'two.txt', insert_line: '1', insert_text: 'x' });
    expect(own).toMatch(
      /^`insert` turns input\.insert_line into a number \("1" became 1\) before tools\.insert sees it/,
    );
    // A call whose input shows no such change (insert_line left out) keeps the probe's words.
    expect(spec?.caseText?.(spec.names, { path: 'two.txt', insert_text: 'x' })).toBeUndefined();
  });

  it('quotes the case’s echo text converted, not the probe’s', async () => {
    const make = withBranch(['echo'], (_, input) => ({ content: String(input.text ?? '') }));
    const [spec] = await specsOf(make);
    expect(spec?.text(spec.names)).toMatch(/\(4242 became "4242"\)/);
    expect(spec?.caseText?.(spec.names, { text: 42 })).toMatch(
      /^echo turns input\.text into a string \(42 became "42"\)/,
    );
    expect(spec?.caseText?.(spec.names, {})).toBeUndefined();
  });
});
