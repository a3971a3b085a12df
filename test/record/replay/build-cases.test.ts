// From steps to replay-verified cases, replayed by the real reference in real worker processes: what is kept,
// what is dropped and why, where a case ends because the world changed outside the calls, and --max-calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCases, type BuildOptions, type Built, unportable } from '../../../src/record/replay/build-cases.ts';
import { prepareSteps } from '../../../src/record/map/prepare-steps.ts';
import { makeRedactor } from '../../../src/record/map/redact.ts';
import { replayPool, type ReplayPool } from '../../../src/record/replay/replay-pool.ts';
import { caseChars, MAX_CASE_CHARS } from '../../../src/record/replay/split-case.ts';
import type { ImportedCall } from '../../../src/record/types.ts';
import { REPO } from '../../support/reference-course.ts';
import { SANDBOX } from '../../support/isolation.ts';
import { call, claudeRead, CWD, transcript } from '../calls.ts';

const A = `${CWD}/a.txt`;
let pool: ReplayPool;
// What the pool was asked: whole cases replayed, calls replayed in sessions, undos.
let asked = { replays: 0, calls: 0, undos: 0 };
const counted = (of: () => ReplayPool): ReplayPool => ({
  replay: (c) => {
    asked.replays += 1;
    return of().replay(c);
  },
  session: async (files) => {
    const session = await of().session(files);
    return {
      ...session,
      call: (c) => {
        asked.calls += 1;
        return session.call(c);
      },
      undo: () => {
        asked.undos += 1;
        return session.undo();
      },
    };
  },
  close: () => of().close(),
});
const counting = counted(() => pool);
const reset = () => {
  asked = { replays: 0, calls: 0, undos: 0 };
};

// A pool whose Bash bound is short, for commands that hang.
let quick: ReplayPool;
beforeAll(() => {
  pool = replayPool({ root: REPO, env: process.env, sandbox: SANDBOX, size: 2, boundMs: 3000 });
  quick = replayPool({ root: REPO, env: process.env, sandbox: SANDBOX, size: 1, boundMs: 300 });
});
afterAll(async () => {
  await Promise.all([pool.close(), quick.close()]);
});

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
      call('Bash', { command: 'cat no-such-file' }, 'all tests passed'),
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

  it('replays every call once: a dropped call that changed the sandbox is undone, never replayed around', async () => {
    const calls = (command: string) => [
      // The course's glob leaves hidden files out unless the pattern names them.
      call('Glob', { pattern: '*' }, `${CWD}/.env\n${A}`),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
      call('Bash', { command }, 'ok'),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
    ];
    // Neither dropped call changes anything (a listing that differs, a command not found): each call runs once, and
    // the case is confirmed as written.
    reset();
    const quiet = await build(calls('no-such-tool'), { bash: 'keep' });
    expect(quiet.tools).toEqual([['Read', 'Read']]);
    expect(asked).toEqual({ calls: 4, undos: 0, replays: 1 });
    // A command that removed the file and is dropped: undone, so the Read after it still finds the file.
    reset();
    const noisy = await build(calls(`rm ${A}; no-such-tool`), { bash: 'keep' });
    expect(noisy.tools).toEqual([['Read', 'Read']]);
    expect(asked).toEqual({ calls: 4, undos: 1, replays: 1 });
  });

  it('waits out each hanging command once, however many there are', async () => {
    const hanging = Array.from({ length: 3 }, (_, k) =>
      call('Bash', { command: `touch ${CWD}/log-${k}; sleep 30` }, 'server started'),
    );
    reset();
    const read = () => call('Read', { file_path: A }, claudeRead(A, 'one\n'));
    const built = await build([read(), ...hanging, read()], { pool: counted(() => quick) });
    expect(built.tools).toEqual([['Read', 'Read']]);
    expect([...built.dropped.values()]).toEqual(Array(3).fill('did not reproduce: Bash: a different exit code'));
    expect(asked).toMatchObject({ calls: 5, undos: 3 });
  }, 30_000);

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

  it('seeds a command naming a directory with what the kept calls show of it, not what only a dropped listing did', async () => {
    const D = `${CWD}/deps`;
    const built = await build([
      call('Glob', { pattern: '**/*', path: D }, `${D}/a.txt\n${D}/.cache/x\n${D}/node_modules/m/i.js`),
      call('Read', { file_path: `${D}/a.txt` }, claudeRead(`${D}/a.txt`, 'A\n')),
      call('Bash', { command: `cd ${D}/ && cat a.txt` }, 'A'),
    ]);
    expect(built.tools).toEqual([['Read', 'Bash']]);
    expect([...built.dropped.values()]).toEqual(['did not reproduce: Glob: different files']);
    expect(built.drafts[0]?.files).toEqual({ 'deps/a.txt': 'A\n' });
  });

  it('splits a case over the size limit into cases under it, each replayed and verified again', async () => {
    const big = (name: string) => created(`${CWD}/${name}`, `${'x'.repeat(99)}\n`.repeat(300));
    const built = await build([big('a.txt'), big('b.txt'), big('c.txt')]);
    expect(built.tools).toEqual([['Write', 'Write'], ['Write']]);
    expect(built.drafts.every((d) => caseChars(d) <= MAX_CASE_CHARS)).toBe(true);
    expect(built.dropped).toEqual(new Map());
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

  it('drops a command outside the portable set without replaying it, and --bash keep replays it', async () => {
    const calls = [
      call('Bash', { command: 'echo {} | jq .' }, '{}'),
      call('Read', { file_path: A }, claudeRead(A, 'one\n')),
    ];
    reset();
    const portable = await build(calls);
    expect(portable.tools).toEqual([['Read']]);
    expect([...portable.dropped.values()]).toEqual([unportable('jq')]);
    expect(asked.calls).toBe(1);
    const kept = await build(calls, { bash: 'keep' });
    expect(kept.dropped.get(0)).not.toBe(unportable('jq'));
  });
});

describe('buildCases: Bash modes', () => {
  it('reproducible: a command must give the same result in a second replay', async () => {
    // A pool whose second replay of a call gives another output than its first: what a command reading the clock or
    // a random number does.
    let n = 0;
    const flaky: ReplayPool = {
      replay: async (c) => ({
        results: c.calls.map(() => ({ content: 'recorded\n', is_error: false, exit_code: 0 })),
        after: {},
        unchanged: [0],
        bashMs: {},
      }),
      session: async () => ({
        call: async () => ({
          result: { content: `${n++ === 1 ? 'other' : 'recorded'}\n`, is_error: false, exit_code: 0 },
          unchanged: true,
          bashMs: 1,
        }),
        undo: async () => true,
        replay: async () => {
          throw new Error('not asked');
        },
        close: async () => {},
      }),
      close: async () => [],
    };
    const steps = prepareSteps(
      transcript([call('Bash', { command: 'date' }, 'recorded')]),
      makeRedactor({ users: [], homes: [], patterns: [] }),
    );
    const built = await buildCases(steps, { maxCalls: 25, bash: 'reproducible', pool: flaky });
    expect([...built.dropped.values()]).toEqual(['did not reproduce: Bash: two replays differ']);
  });

  it('keep: one replay agreeing with the recording is enough; reproducible replays it once more', async () => {
    const session = [call('Bash', { command: 'echo hi' }, 'hi')];
    reset();
    expect((await build(session, { bash: 'keep' })).tools).toEqual([['Bash']]);
    // The judging replay, and the case confirmed as written.
    expect(asked).toEqual({ calls: 1, undos: 0, replays: 1 });
    reset();
    expect((await build(session, { bash: 'reproducible' })).tools).toEqual([['Bash']]);
    expect(asked).toEqual({ calls: 2, undos: 1, replays: 1 });
  });
});
