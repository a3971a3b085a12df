// From an observation to findings, on dispatchers run through the driver's real probe: the reference has
// none; nothing is inferred from an observation that shows nothing of the dispatcher; one finding per mistake.
// (test/suite-strength.test.ts proves the findings right on the whole catalogue of wrong dispatchers.)
import { expect, it } from 'vitest';
import { observe } from '../../../../src/modes/dispatch/driver.ts';
import { makeExecute } from '../../../../src/execute.ts';
import { findMistakes } from '../../../../src/modes/dispatch/judge/find-mistakes.ts';
import { probeRequest } from '../../../../src/modes/dispatch/judge/probe-calls.ts';
import { Tools } from '../../../../src/tools/index.ts';

type Make = Parameters<typeof observe>[1];
const findings = async (make: Make) =>
  findMistakes(JSON.parse(JSON.stringify(await observe(probeRequest(), make))) as unknown);

it('finds nothing wrong with the reference', async () => {
  expect(await findings(makeExecute)).toEqual([]);
});

it('finds nothing in an observation that is malformed, or of another probe', () => {
  expect(findMistakes({ calls: [] })).toEqual([]);
  expect(findMistakes([{ calls: [], result: null }])).toEqual([]);
});

it('infers nothing from a makeExecute that throws for the stand-in Tools (it checks `instanceof Tools`)', async () => {
  const make = ((tools: unknown) => {
    if (!(tools instanceof Tools)) throw new TypeError('not a Tools');
    return makeExecute(tools);
  }) as Make;
  expect(await findings(make)).toEqual([]);
});

it('says nothing of routes when the calls reach Tools kept from elsewhere, not the stand-in', async () => {
  const stale = new Tools('/nonexistent-sandbox');
  expect((await findings((() => makeExecute(stale)) as Make)).map((f) => f.cause)).toEqual([]);
});

it('makes one finding per mistake, each about its own names', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) => {
      if (name === 'Glob' || name === 'glob') return tools.glob(input.path, input.pattern);
      if (name === 'Bash' || name === 'bash')
        return { content: (await tools.bash(input.command, input.timeout)).content };
      return reference(name, input);
    };
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(/^`Bash` and `bash` drop `exit_code` and `is_error` from what tools\.bash returns/),
    expect.stringMatching(/^`Glob` and `glob` call tools\.glob\(input\.path, input\.pattern\)/),
  ]);
  expect(found[0]?.triggers).toEqual([{ names: ['Bash', 'bash'], change: { drop: ['exit_code', 'is_error'] } }]);
});
