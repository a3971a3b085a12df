// A replay worker under the grader's supervision, with a stand-in worker that misbehaves on request: what the
// program machine decides for a server (a reply's deadline, no deadline while idle, garbage, death, a stop) as a
// real process shows it.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker, type WorkerProcess } from '../../../src/record/replay/worker-process.ts';
import { REPO } from '../../support/reference-course.ts';
import { SANDBOX } from '../../support/isolation.ts';

const WORKER = join(REPO, 'test', 'fixtures', 'replay-worker-misbehaves', 'worker.mjs');
let worker: WorkerProcess | undefined;

const start = async (): Promise<WorkerProcess> => {
  worker = await startWorker({ root: REPO, env: process.env, sandbox: SANDBOX, tsxCache: undefined, worker: WORKER });
  return worker;
};

afterEach(async () => {
  expect(await worker?.close()).toBeUndefined();
  worker = undefined;
});

describe('a replay worker, supervised', () => {
  it('answers one request after another, waiting between them with no deadline', async () => {
    const w = await start();
    expect(await w.ask({ do: 'echo' }, 500)).toEqual({ echoed: true });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await w.ask({ do: 'echo' }, 500)).toEqual({ echoed: true });
  });

  it('fails a request past its deadline, and is gone for the next', async () => {
    const w = await start();
    await w.ask({ do: 'echo' }, 500);
    const began = performance.now();
    await expect(w.ask({ do: 'hang' }, 300)).rejects.toThrow('the replay did not finish within 300 ms');
    expect(performance.now() - began).toBeLessThan(5000);
    await expect(w.ask({ do: 'echo' }, 500)).rejects.toThrow('the replay did not finish within 300 ms');
    expect(await w.gone).toBe('the replay did not finish within 300 ms');
  });

  it.each([
    ['garbage', 'a line that is not JSON'],
    ['array', 'JSON that is no object'],
  ])('is stopped for %s (%s): the request fails and so does the next, at once', async (what) => {
    const w = await start();
    await expect(w.ask({ do: what }, 5000)).rejects.toThrow('the replay worker replied with no JSON object');
    await expect(w.ask({ do: 'echo' }, 5000)).rejects.toThrow('the replay worker replied with no JSON object');
  });

  it('dies: the request fails with its exit and its last words', async () => {
    const w = await start();
    await expect(w.ask({ do: 'exit' }, 5000)).rejects.toThrow('the replay worker exited (code 3): dying words');
  });

  it('closed mid-request: the request fails, and the worker is gone', async () => {
    const w = await start();
    await w.ask({ do: 'echo' }, 5000);
    const asked = w.ask({ do: 'hang' }, 30_000);
    const closed = w.close();
    await expect(asked).rejects.toThrow('the replay pool was closed');
    expect(await closed).toBeUndefined();
    expect(await w.gone).toBe('the replay pool was closed');
  });
});
