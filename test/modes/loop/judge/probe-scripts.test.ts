// The loop probe's scripts are loop cases as a course author writes them: each follows cases/agent-loop.schema.json
// (program.ts would refuse the whole probe for one that does not, and the hints would stand alone, unnoticed), and
// each has a description of its own, which says what it gives the loop to do.
import { Ajv } from 'ajv';
import { expect, test } from 'vitest';
import { parseCase, readCaseSchema, SCHEMA_OPTIONS } from '../../../../src/course/load-cases.ts';
import { packageRoot } from '../../../../src/course/stages.ts';
import { loopProbeRequest, PROBE_SCRIPTS } from '../../../../src/modes/loop/judge/probe-scripts.ts';

test('every script follows the agent-loop case schema', async () => {
  const validate = new Ajv(SCHEMA_OPTIONS).compile(await readCaseSchema(packageRoot(), 'agent-loop'));
  for (const script of PROBE_SCRIPTS) {
    expect(parseCase(JSON.stringify(script), validate), script.description).toMatchObject({ ok: true });
  }
});

test('each script is told apart by its description, and the request carries them all, in order', () => {
  const descriptions = PROBE_SCRIPTS.map((s) => s.description);
  expect(new Set(descriptions).size).toBe(PROBE_SCRIPTS.length);
  expect(loopProbeRequest().scripts.map((s) => s.description)).toEqual(descriptions);
});
