// The loop mode's driver as another loop-kind mode reuses it (`loopDriver`, src/modes/loop/driver.ts): it loads the
// module and export the stage's row names, never src/agent-loop.ts's runLoop by name, and each option changes only
// what it says: the request keys recorded, what the loop is given, what its end adds. Without options it is the
// loop mode's own driver, its results the same as the reference's.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/agent-loop.ts';
import { firstStageIn, studentCode } from '../../../src/course/stages.ts';
import { courseUrl } from '../../../src/modes/kit.ts';
import { driver, loopDriver, runLoopCase } from '../../../src/modes/loop/driver.ts';
import { REPO } from '../../support/reference-course.ts';

const request = {
  model: 'claude-sonnet-4-6',
  max_tokens: 64,
  tools: [],
  messages: [{ role: 'user', content: 'Hi.' }],
};
const turn = {
  message: {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text: 'Hello.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 2 },
  },
};
const oneTurn = { request, turns: [turn], outputs: {} };

// A loop of another stage's file and name: it sends its request with a key of its own and returns the conversation.
const OTHER_LOOP = [
  'export async function runOtherLoop(client: any, _execute: unknown, request: any) {',
  '  const { budget, ...sent } = request;',
  '  const reply = await client.messages.create({ ...sent, metadata: { user_id: `budget-${budget ?? "none"}` } });',
  "  return [...request.messages, { role: 'assistant', content: reply.content }];",
  '}',
];

let course = '';
beforeAll(async () => {
  course = await mkdtemp(join(tmpdir(), 'theinference-loop-driver-'));
  await mkdir(join(course, 'src'));
  await writeFile(join(course, 'src', 'other-loop.ts'), OTHER_LOOP.join('\n'));
});
afterAll(async () => {
  await rm(course, { recursive: true, force: true });
});

const otherCode = { module: './src/other-loop.ts', export: 'runOtherLoop' };
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('loopDriver', () => {
  it("runs the export the stage's row names, from the module it names", async () => {
    const started = await loopDriver().start(courseUrl(course), otherCode);
    const results = json(await started.run(started.parse(JSON.stringify(oneTurn))));
    // The key it added, which the request it was given lacks, is recorded with the graded ones.
    expect(results).toEqual([
      { request: { ...request, metadata: { user_id: 'budget-none' } } },
      { returned: [...request.messages, { role: 'assistant', content: turn.message.content }] },
    ]);
  });

  it('fails to start, naming the export, when the module lacks it', async () => {
    await expect(
      loopDriver().start(courseUrl(course), { module: './src/other-loop.ts', export: 'runLoop' }),
    ).rejects.toThrow("The requested module './src/other-loop.ts' does not provide an export named 'runLoop'");
  });

  it('records the keys a mode adds, gives the loop what `given` makes, and adds what `around` says under its keys to the end', async () => {
    let ran = false;
    const started = await loopDriver({
      requestKeys: ['model', 'max_tokens', 'tools', 'messages', 'metadata'],
      given: (c) => ({ ...(c.request as object), budget: c.budget }),
      around: async (run) => {
        await run();
        ran = true;
        // A key the mode does not name among its endKeys never reaches the results.
        return { budget_seen: 7, returned: 'forged' };
      },
      endKeys: ['budget_seen'],
    }).start(courseUrl(course), otherCode);
    const results = json(await started.run(started.parse(JSON.stringify({ ...oneTurn, budget: 7 }))));
    expect(results).toEqual([
      { request: { ...request, metadata: { user_id: 'budget-7' } } },
      {
        returned: [...request.messages, { role: 'assistant', content: turn.message.content }],
        // The loop was given a key of the case's own, and took it out of a copy: the request it was given is unchanged.
        budget_seen: 7,
      },
    ]);
    expect(ran).toBe(true);
  });

  it("is the loop mode's own driver without options: the first loop stage's module, as the reference runs it", async () => {
    const code = studentCode(firstStageIn('loop')!);
    expect(code).toEqual({ module: './src/agent-loop.ts', export: 'runLoop' });
    const started = await driver.start(courseUrl(REPO), code);
    const ran = json(await started.run(started.parse(JSON.stringify(oneTurn))));
    expect(ran).toEqual(json(await runLoopCase(oneTurn as never, runLoop as never)));
  });
});
