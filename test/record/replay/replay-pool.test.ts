// Replay workers run recorded commands the way the grader runs a student's program: through startProcess, so in
// the OS sandbox. What a recorded `git push` or `rm -rf ~` could reach is what these tests probe.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayPool, type ReplayPool } from '../../../src/record/replay/replay-pool.ts';
import { makeScratch, REPO, type Scratch } from '../../grade/course-fixture.ts';
import { SANDBOX } from '../../support/isolation.ts';

let scratch: Scratch;
let outside: string;
let pool: ReplayPool;
const SECRET = 'sk-ant-api03-replay-pool-test-secret';

beforeAll(async () => {
  scratch = await makeScratch();
  outside = await mkdtemp(join(scratch.root, 'host-'));
  pool = replayPool({
    root: REPO,
    env: { ...process.env, ANTHROPIC_API_KEY: SECRET },
    sandbox: SANDBOX,
    size: 1,
    boundMs: 3000,
  });
});

afterAll(async () => {
  await pool.close();
  await rm(outside, { recursive: true, force: true });
  await scratch.remove();
});

const bash = (command: string) => ({ tool: 'Bash', input: { command } });

describe('a replayed command', () => {
  it('runs in a fresh sandbox seeded from the case, and reports what the reference bash gives', async () => {
    const run = await pool.replay({ files: { 'a.txt': 'A\n' }, calls: [bash('cat a.txt; pwd')] });
    expect(run.results).toEqual([{ content: 'A\n<sandbox>\n', is_error: false, exit_code: 0 }]);
  });

  it('does not see the environment of the machine recording it', async () => {
    const run = await pool.replay({ files: {}, calls: [bash('env')] });
    expect(JSON.stringify(run.results)).not.toContain(SECRET);
  });

  it.runIf(SANDBOX)('cannot write outside its sandbox, in the sandbox', async () => {
    const target = join(outside, 'escaped.txt');
    await pool.replay({ files: {}, calls: [bash(`echo escaped > '${target}'; touch ~/escaped`)] });
    expect(await readFile(target, 'utf8').catch(() => null)).toBeNull();
  });
});

describe('a seed the reference cannot hold', () => {
  it.each(['', '.', 'src/', '../x'])(
    '%j fails the replay with what is wrong, and the worker serves the next',
    async (path) => {
      await expect(pool.replay({ files: { [path]: '' }, calls: [bash('true')] })).rejects.toThrow(
        'must be a relative path inside the sandbox, naming a file',
      );
      const run = await pool.replay({ files: { 'a.txt': 'A' }, calls: [bash('cat a.txt')] });
      expect(run.results).toEqual([{ content: 'A', is_error: false, exit_code: 0 }]);
    },
  );
});

// The grader's program machine supervises each worker (worker-process.test.ts has the rest of what it decides).
describe('a worker that fails', () => {
  it('killed mid-replay, fails that replay with why, and the next replay starts a fresh worker', async () => {
    // The reference runs a Bash call as `sh -c` exec'ing bash, a child of the worker: its $PPID is the worker.
    await expect(pool.replay({ files: {}, calls: [bash('kill -9 $PPID; sleep 5')] })).rejects.toThrow(
      /^the replay worker exited \(SIGKILL\)/,
    );
    const run = await pool.replay({ files: { 'a.txt': 'A' }, calls: [bash('cat a.txt')] });
    expect(run.results).toEqual([{ content: 'A', is_error: false, exit_code: 0 }]);
  });
});

describe('a session', () => {
  it('replays a case call by call, each where the last left the sandbox, and undoes the last on request', async () => {
    const session = await pool.session({ 'a.txt': 'A\n' });
    try {
      expect((await session.call(bash('echo B >> a.txt; cat a.txt'))).result).toEqual({
        content: 'A\nB\n',
        is_error: false,
        exit_code: 0,
      });
      expect(await session.undo()).toBe(true);
      const step = await session.call({ tool: 'Read', input: { path: 'a.txt' } });
      expect(step.result).toEqual({ content: '1: A' });
      // A whole case on the same worker meanwhile, in a sandbox of its own.
      expect((await session.replay({ files: {}, calls: [bash('ls')] })).results).toEqual([
        { content: '', is_error: false, exit_code: 0 },
      ]);
      expect((await session.call(bash('cat a.txt'))).result).toMatchObject({ content: 'A\n' });
    } finally {
      await session.close();
    }
  });

  it('reports what each call did: the file a write left, whether a command changed the sandbox, its time', async () => {
    const session = await pool.session({});
    try {
      expect(await session.call({ tool: 'Write', input: { path: '<sandbox>/b.txt', file_text: 'b' } })).toEqual({
        result: { content: 'File created successfully at: <sandbox>/b.txt' },
        after: 'b',
        unchanged: false,
        bashMs: 0,
      });
      expect(await session.call(bash('true'))).toMatchObject({ unchanged: true, bashMs: expect.any(Number) });
      expect(await session.call(bash('touch c'))).toMatchObject({ unchanged: false });
    } finally {
      await session.close();
    }
  });

  it('fails its first call with what is wrong when the seed cannot be held, and the worker serves the next', async () => {
    const bad = await pool.session({ '': 'x' });
    await expect(bad.call(bash('true'))).rejects.toThrow('must be a relative path inside the sandbox');
    await bad.close();
    const good = await pool.session({ 'a.txt': 'A' });
    expect((await good.call(bash('cat a.txt'))).result).toMatchObject({ content: 'A' });
    await good.close();
  });
});
