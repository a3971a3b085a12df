// The Tools a case's dispatcher is given, watched for work still running when its calls are done: a dispatcher that
// does not await its Tools methods leaves no sandbox behind in the temp dir (the audit and the recorder run cases in
// their own process), and the watch changes nothing the dispatcher sees.
import { readdir } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { dispatch } from '../../../src/modes/dispatch/driver.ts';
import { removeAfterWork, watchTools } from '../../../src/modes/dispatch/tools-at-work.ts';
import { Tools } from '../../../src/tools/index.ts';
import { makeExecute as unawaited } from '../../fixtures/wrong-execute/unawaited-fields-every-method.ts';
import { useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();

it('leaves no sandbox behind when the dispatcher does not await its writes into new directories', async () => {
  // Twenty writes left running, each making its directories in the sandbox after the case's calls are done.
  const calls = Array.from({ length: 20 }, (_, k) => ({
    tool: 'Write',
    input: { path: `deep${k}/er/new.txt`, content: 'x', file_text: 'x' },
  }));
  const results = await dispatch({ calls }, unawaited as never);
  expect(results).toEqual(calls.map(() => ({})));
  // What was left running lands within moments: look once it has had them.
  await new Promise((landed) => setTimeout(landed, 300));
  expect((await readdir(scratch.tmp)).filter((f) => f.startsWith('theinference-sandbox-'))).toEqual([]);
});

it('keeps each method where the class has it, unbound calls failing as they would, and tracks each promise', async () => {
  const tools = new Tools(scratch.tmp);
  const { pending } = watchTools(tools);
  expect(Object.keys(tools)).toEqual(Object.keys(new Tools(scratch.tmp)));
  // Called unbound, a method does what the class's does unbound.
  const unbound = async (view: (path: string) => Promise<unknown>) => view('x').catch((e: Error) => e.message);
  expect(await unbound((tools as unknown as Tools).view)).toEqual(await unbound(Tools.prototype.view));
  const running = (tools as unknown as Tools).view('.');
  expect(pending.size).toBe(1);
  await running;
  await Promise.resolve();
  expect(pending.size).toBe(0);
});

it('removes once the work settles, waiting for it first', async () => {
  let release: () => void = () => {};
  const work = new Promise<void>((done) => (release = done));
  const removed: string[] = [];
  const settled = removeAfterWork({ pending: new Set([work]) }, async () => void removed.push('removed'));
  release();
  await settled;
  await work;
  await Promise.resolve();
  expect(removed).toEqual(['removed', 'removed']);
});
