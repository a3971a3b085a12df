// From steps to replay-verified cases, replayed by the real reference in real worker processes: what is kept,
// what is dropped and why, where a case ends because the world changed outside the calls, and --max-calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCases, type BuildOptions, type Built } from '../../../src/record/replay/build-cases.ts';
import { prepareSteps } from '../../../src/record/map/prepare-steps.ts';
import { makeRedactor } from '../../../src/record/map/redact.ts';
import { replayPool, type ReplayPool } from '../../../src/record/replay/replay-pool.ts';
import type { ImportedCall } from '../../../src/record/types.ts';
import { REPO } from '../../support/reference-course.ts';
import { SANDBOX } from '../../support/isolation.ts';
import { call, claudeRead, CWD, transcript } from '../calls.ts';

const A = `${CWD}/a.txt`;
let pool: ReplayPool;
let replays = 0;
const counting: ReplayPool = {
  replay: (c) => {
    replays += 1;
    return pool.replay(c);
  },
  close: () => pool.close(),
};

beforeAll(() => {
  pool = replayPool({ root: REPO, env: process.env, sandbox: SANDBOX, size: 2, boundMs: 3000 });
});
afterAll(() => pool.close());

const build = async (
  calls: ImportedCall[],
  options: Partial<BuildOptions> = {},
): Promise<Built & { tools: string[][] }> => {
  const steps = prepareSteps(transcript(calls), makeRedactor({ users: [], homes: [], patterns: [] }));
  const built = await buildCases(steps, { maxCalls: 25, bash: 'reproducible', pool: counting, ...options });
  return { ...built, tools: built.drafts.map((d) => d.calls.map((m) => m.call.tool)) };
};
const created = (path: string, content: string) =>
  call(
    'Write',
    { file_path: path, content },
    { content: `File created successfully at: ${path}`, details: { type: 'create', originalFile: null } },
  );

describe('buildCases', () => {
  it('keeps every call that reproduces, in one case, with the results the reference gave', async () => {
    const built = await build([
      created(A, 'one\n'),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
      call('Bash', { command: `cat ${A}` }, 'one'),
    ]);
    expect(built.tools).toEqual([['Write', 'Read', 'Bash']]);
    expect(built.drafts[0]?.files).toEqual({});
    expect(built.drafts[0]?.results).toEqual([
      { content: 'File created successfully at: <sandbox>/a.txt' },
      { content: '1: one' },
      { content: 'one\n', is_error: false, exit_code: 0 },
    ]);
    expect(built.dropped).toEqual(new Map());
  });

  it('drops a call that does not reproduce, with the reason, and keeps the rest', async () => {
    const built = await build([
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
      call('Bash', { command: 'no-such-tool --run' }, 'all tests passed'),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
    ]);
    expect(built.tools).toEqual([['Read', 'Read']]);
    expect([...built.dropped.values()]).toEqual(['did not reproduce: Bash: a different exit code']);
    expect(built.drafts[0]?.files).toEqual({ 'a.txt': 'one\n' });
  });

  it('ends the case where the recording shows the world changed outside the calls, and seeds the next from that evidence', async () => {
    const edit = call(
      'Edit',
      { file_path: A, old_string: 'one', new_string: 'two' },
      {
        content: `The file ${A} has been updated successfully.`,
        details: { originalFile: 'one\n', userModified: false },
      },
    );
    // A formatter hook rewrote the file after the Edit: the next Read shows what it made of it.
    const built = await build([
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
      edit,
      call('Read', { file_path: A }, claudeRead(A, 'TWO\n')),
    ]);
    expect(built.tools).toEqual([['Read', 'Edit'], ['Read']]);
    expect(built.drafts.map((d) => d.files)).toEqual([{ 'a.txt': 'one\n' }, { 'a.txt': 'TWO\n' }]);
    expect(built.dropped).toEqual(new Map());
  });

  it('replays again only when a dropped call changed the sandbox', async () => {
    const calls = (command: string) => [
      // The course's glob leaves hidden files out unless the pattern names them.
      call('Glob', { pattern: '*' }, `${CWD}/.env\n${A}`),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
      call('Bash', { command }, 'ok'),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
    ];
    // Neither dropped call changes anything (a listing that differs, a command not found): one replay judges every
    // call, and one more confirms the case as written.
    replays = 0;
    const quiet = await build(calls('no-such-tool'), { bash: 'keep' });
    expect(quiet.tools).toEqual([['Read', 'Read']]);
    expect(replays).toBe(2);
    // A command that changed the sandbox and is dropped: the calls after it are replayed again without it.
    replays = 0;
    const noisy = await build(calls(`rm ${A}; no-such-tool`), { bash: 'keep' });
    expect(noisy.tools).toEqual([['Read', 'Read']]);
    expect(replays).toBe(3);
  });

  it('makes cases of at most --max-calls calls', async () => {
    const reads = Array.from({ length: 5 }, () => call('Read', { file_path: A }, claudeRead(A, 'one\n')));
    expect((await build(reads, { maxCalls: 2 })).tools).toEqual([['Read', 'Read'], ['Read', 'Read'], ['Read']]);
  });

  it("seeds a later case's command with the file an earlier case's Write made", async () => {
    const built = await build([created(A, 'one\n'), call('Bash', { command: `cat ${A}` }, 'one')], { maxCalls: 1 });
    expect(built.tools).toEqual([['Write'], ['Bash']]);
    expect(built.drafts[1]?.files).toEqual({ 'a.txt': 'one\n' });
    expect(built.dropped).toEqual(new Map());
  });

  it("seeds a later case's command with the files an earlier case's Glob listed", async () => {
    const built = await build(
      [
        call('Glob', { pattern: '*.py' }, `${CWD}/a.py\n${CWD}/b.py`),
        call('Bash', { command: `rm ${CWD}/a.py ${CWD}/b.py` }, ''),
      ],
      { maxCalls: 1 },
    );
    expect(built.tools).toEqual([['Glob'], ['Bash']]);
    expect(built.drafts[1]?.files).toEqual({ 'a.py': '', 'b.py': '' });
  });

  it('keeps each subagent in cases of its own', async () => {
    const built = await build([
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
      call('Read', { file_path: A }, claudeRead(A, 'one\n'), { agent: 'a1' }),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
    ]);
    expect(built.drafts.map((d) => [d.agent, d.calls.length])).toEqual([
      [undefined, 2],
      ['a1', 1],
    ]);
  });

  it('seeds from --files-from what the recording only listed, so a Grep over it reproduces', async () => {
    const calls = [call('Glob', { pattern: '*.txt' }, A), call('Grep', { pattern: 'needle' }, 'Found 1 file\na.txt')];
    const guessed = await build(calls);
    expect(guessed.tools).toEqual([['Glob']]);
    expect([...guessed.dropped.values()]).toEqual(['did not reproduce: Grep: different files']);
    const read = await build(calls, { filesFrom: async (path) => (path === 'a.txt' ? 'a needle\n' : undefined) });
    expect(read.tools).toEqual([['Glob', 'Grep']]);
    expect(read.drafts[0]?.origins).toEqual({ 'a.txt': 'files-from' });
  });

  it('keeps no command too slow for a case, however well it reproduces', async () => {
    const built = await build([call('Bash', { command: 'sleep 2.2; echo done' }, 'done')], { bash: 'keep' });
    expect([...built.dropped.values()]).toEqual(['Bash too slow for a case (over 2 s in a replay)']);
    expect(built.divergences).toEqual(new Map());
  });

  it('with --bash drop, keeps no command', async () => {
    const built = await build(
      [call('Bash', { command: 'echo hi' }, 'hi'), call('Read', { file_path: A }, claudeRead(A, 'one\n'))],
      { bash: 'drop' },
    );
    expect(built.tools).toEqual([['Read']]);
    expect([...built.dropped.values()]).toEqual(['Bash, with --bash drop']);
  });
});

describe('buildCases: Bash modes', () => {
  it('reproducible: a command must give the same result in a second replay', async () => {
    // A pool whose second replay gives another output than its first: what a command reading the clock or a
    // random number does.
    let n = 0;
    const flaky: ReplayPool = {
      replay: async (c) => {
        const content = `${n++ === 1 ? 'other' : 'recorded'}\n`;
        return {
          results: c.calls.map(() => ({ content, is_error: false, exit_code: 0 })),
          after: {},
          unchanged: [0],
          bashMs: {},
        };
      },
      close: async () => [],
    };
    const steps = prepareSteps(
      transcript([call('Bash', { command: 'flaky' }, 'recorded')]),
      makeRedactor({ users: [], homes: [], patterns: [] }),
    );
    const built = await buildCases(steps, { maxCalls: 25, bash: 'reproducible', pool: flaky });
    expect([...built.dropped.values()]).toEqual(['did not reproduce: Bash: two replays differ']);
  });

  it('keep: one replay agreeing with the recording is enough; reproducible replays it once more', async () => {
    const session = [call('Bash', { command: 'echo hi' }, 'hi')];
    replays = 0;
    expect((await build(session, { bash: 'keep' })).tools).toEqual([['Bash']]);
    expect(replays).toBe(2); // the judging replay, and the case confirmed as written
    replays = 0;
    expect((await build(session, { bash: 'reproducible' })).tools).toEqual([['Bash']]);
    expect(replays).toBe(3);
  });
});
