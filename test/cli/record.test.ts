// `theinference record`, the real binary end to end on a real transcript (tool_heavy.jsonl, from marot/spotter:
// test/fixtures/transcripts/spotter/SOURCE.md): cases and snapshots written, the same bytes again on a re-run,
// a different case refused without --force, --dry-run writing nothing, and misuse exiting 2 with a message that
// says how to fix it. No temp dir or process is left behind.
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordCommand } from '../../src/cli/commands/record.ts';
import { makeScratch, processRunning, REPO, type Scratch } from '../grade/course-fixture.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
const TRANSCRIPT = join(REPO, 'test', 'fixtures', 'transcripts', 'spotter', 'tool_heavy.jsonl');
const CASE = join('cases', 'register-tools', 'recorded-tool-heavy.json');
const SNAPSHOT = join('snapshots', 'register-tools', 'recorded-tool-heavy.json');
let scratch: Scratch;

beforeAll(async () => {
  scratch = await makeScratch();
});
afterEach(async () => {
  expect((await readdir(scratch.tmp)).filter((e) => e.startsWith('theinference-'))).toEqual([]);
});
afterAll(async () => {
  await scratch.remove();
});

const env = () => ({ NO_COLOR: '1', TMPDIR: scratch.tmp });
const record = (dir: string, ...args: string[]) =>
  execa('node', [BIN, 'record', TRANSCRIPT, '--stage', 'register-tools', '--dir', dir, ...args], {
    cwd: dir,
    env: env(),
    reject: false,
  });
const courseDir = () => mkdtemp(join(scratch.root, 'courses', 'course-'));

describe('theinference record', () => {
  let dir: string;

  it('writes the case and its snapshot and prints the report', async () => {
    dir = await courseDir();
    const { exitCode, stdout, stderr } = await record(dir);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const lines = stdout.split('\n');
    expect(lines).toContain('  calls     6 seen, 2 mapped, 2 replayed, 2 kept in 1 case');
    // /tmp/claude-1000/-home-marco-projects-spotter/…: the home, dash-encoded as Claude Code names its task files.
    expect(lines).toContain('  redacted  2 home directories');
    expect(lines).toContain('  fidelity  2 of 2 replayed calls reproduce the recording (100 %)');
    expect(lines).toContain(
      'added         cases/register-tools/recorded-tool-heavy.json, snapshots/register-tools/recorded-tool-heavy.json, recordings/register-tools/recorded-tool-heavy.json',
    );
    expect(lines.at(-1)).toBe('yield: 2 of 6 calls (33 %) are in replay-verified cases');
    const written = JSON.parse(await readFile(join(dir, CASE), 'utf8')) as {
      calls: { tool: string }[];
      source: { tool_use_ids: string[] };
    };
    expect(written.calls.map((c) => c.tool)).toEqual(['Glob', 'Read']);
    expect(written.source.tool_use_ids).toHaveLength(2);
    const snapshot = JSON.parse(await readFile(join(dir, SNAPSHOT), 'utf8')) as { results: unknown[] };
    expect(snapshot.results).toHaveLength(2);
    for (const file of [CASE, SNAPSHOT]) expect(await readFile(join(dir, file), 'utf8')).not.toMatch(/marco/i);
  });

  it('gives the same bytes on a re-run, and says they are unchanged', async () => {
    const before = await Promise.all([CASE, SNAPSHOT].map((f) => readFile(join(dir, f), 'utf8')));
    const { exitCode, stdout } = await record(dir);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('unchanged     cases/register-tools/recorded-tool-heavy.json');
    expect(await Promise.all([CASE, SNAPSHOT].map((f) => readFile(join(dir, f), 'utf8')))).toEqual(before);
  });

  it('refuses to replace a case with other content without --force, writing nothing', async () => {
    const edited = (await readFile(join(dir, CASE), 'utf8')).replace('Replays 2 calls', 'Replays two calls');
    await writeFile(join(dir, CASE), edited);
    const refused = await record(dir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toContain('refused       cases/register-tools/recorded-tool-heavy.json');
    expect(refused.stderr).toBe(
      'error: recorded-tool-heavy: a case of that name exists with other content; nothing was written. Re-run with --force to replace the set as a whole, or choose another --name.',
    );
    expect(await readFile(join(dir, CASE), 'utf8')).toBe(edited);
    const forced = await record(dir, '--force');
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain('replaced      cases/register-tools/recorded-tool-heavy.json');
    expect(await readFile(join(dir, CASE), 'utf8')).not.toBe(edited);
  });

  it('reuses the replay of a dry run in the real run right after it, writing what a fresh run writes', async () => {
    const course = await courseDir();
    // A course directory set up with npm install: the cache goes under its node_modules/.cache/.
    await mkdir(join(course, 'node_modules'));
    const dry = await record(course, '--dry-run');
    expect(dry.stdout).not.toContain('  replay    reused');
    const real = await record(course);
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toContain("  replay    reused: an earlier run's of the same transcript, options and reference");
    const fresh = await courseDir();
    expect((await record(fresh)).exitCode).toBe(0);
    for (const file of [CASE, SNAPSHOT])
      expect(await readFile(join(course, file), 'utf8')).toBe(await readFile(join(fresh, file), 'utf8'));
    // Other options, another replay.
    expect((await record(course, '--max-calls', '1', '--dry-run')).stdout).not.toContain('  replay    reused');
  });

  it('with --verbose, lists each dropped call by tool and id, to find it in the transcript', async () => {
    const { exitCode, stdout } = await record(await courseDir(), '--dry-run', '--verbose', '--divergences', 'all');
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^ {18}WebSearch toolu_\w+: not in the course's toolset: WebSearch$/m);
    expect(stdout).toMatch(/^ {18}Bash toolu_\w+: Bash in the background$/m);
  });

  it('re-recorded with other options, replaces the set of cases of that name as a whole, only with --force', async () => {
    const course = await courseDir();
    expect((await record(course, '--max-calls', '1')).exitCode).toBe(0);
    const listed = async () => (await readdir(join(course, 'cases', 'register-tools'))).sort();
    expect(await listed()).toEqual(['recorded-tool-heavy-01.json', 'recorded-tool-heavy-02.json']);
    // The same calls under one case now: the two old ones would be graded beside it.
    const refused = await record(course);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toContain(
      'refused       cases/register-tools/recorded-tool-heavy-01.json, snapshots/register-tools/recorded-tool-heavy-01.json (stale: this run does not make it again)',
    );
    expect(refused.stderr).toBe(
      'error: recorded-tool-heavy-01, recorded-tool-heavy-02: stale, a case of the set this run replaces that it does not make again; nothing was written. Re-run with --force to replace the set as a whole (removing the stale ones), or choose another --name.',
    );
    expect(await listed()).toEqual(['recorded-tool-heavy-01.json', 'recorded-tool-heavy-02.json']);
    const forced = await record(course, '--force');
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain('added         cases/register-tools/recorded-tool-heavy.json');
    expect(forced.stdout).toContain(
      'removed       cases/register-tools/recorded-tool-heavy-02.json, snapshots/register-tools/recorded-tool-heavy-02.json',
    );
    expect(await listed()).toEqual(['recorded-tool-heavy.json']);
    expect((await readdir(join(course, 'snapshots', 'register-tools'))).sort()).toEqual(['recorded-tool-heavy.json']);
  });

  it('with --dry-run, prints the cases and the report and writes nothing', async () => {
    const empty = await courseDir();
    const { exitCode, stdout } = await record(empty, '--dry-run', '--name', 'recorded-dry');
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(
      /^--- cases\/register-tools\/recorded-dry\.json\n\{\n {2}"\$schema": "\.\.\/case\.schema\.json",/,
    );
    expect(stdout).toContain('would add     cases/register-tools/recorded-dry.json');
    expect(await readdir(empty)).toEqual([]);
  });

  it.each([
    [['--max-calls', '0'], "error: --max-calls takes a whole number of at least 1, e.g. --max-calls 25; got '0'"],
    [['--name', 'Not A Slug'], "error: --name must be a kebab-case slug such as recorded-my-session, got 'Not A Slug'"],
    [
      ['--redact', '(unclosed'],
      "error: --redact '(unclosed' is not a valid regular expression (Invalid regular expression: /(unclosed/: Unterminated group)",
    ],
    [['--workspace', '.'], 'error: --workspace is for a live recording: add --live (and the agent command after --)'],
    [
      ['--files-from', 'no-such-dir'],
      'error: --files-from no-such-dir: no such directory; give the workspace as it was when the session started',
    ],
    [
      ['--format', 'yaml'],
      "error: --format takes one of claude-code, anthropic, openai-chat, openai-responses, ai-sdk, codex, gemini, pi, live; got 'yaml'",
    ],
    [
      ['--redact', ''],
      "error: --redact '' matches empty text, so it would redact between every two characters: give a pattern for the text to remove, e.g. --redact 'acme-[0-9]+'",
    ],
    [
      ['--redact', 'ACME-\\d*|x?'],
      "error: --redact 'ACME-\\d*|x?' matches empty text, so it would redact between every two characters: give a pattern for the text to remove, e.g. --redact 'acme-[0-9]+'",
    ],
  ])('exits 2 on %j, saying how to fix it', async (args, message) => {
    const { exitCode, stderr } = await record(await courseDir(), ...args);
    expect(exitCode).toBe(2);
    if (typeof message === 'string') expect(stderr.trim()).toBe(message);
    else expect(stderr).toMatch(message);
  });

  it('on a terminal, says on stderr how far the replay and the snapshots are, then clears the line before the report', async () => {
    const stdout = new PassThrough();
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    const err: string[] = [];
    stderr.on('data', (c: Buffer) => err.push(c.toString()));
    stdout.resume();
    const flags = { operands: [TRANSCRIPT], stage: 'register-tools', dir: await courseDir(), dryRun: true };
    const io = { cwd: scratch.root, env: { ...process.env, ...env() }, stdin: new PassThrough(), stdout, stderr };
    expect(await recordCommand(flags, io)).toBe('pass');
    // The first line at once, the last whatever the time since the one before, then the line cleared.
    expect(err.join('')).toMatch(
      /^\rreplaying: 1 of 2 calls \(50 %\), tool_heavy\.jsonl\u001b\[K(?:.*)\rreplaying: 2 of 2 calls \(100 %\), tool_heavy\.jsonl\u001b\[K\rsnapshotting with the reference: 1 of 1 cases \(100 %\)\u001b\[K\r\u001b\[K$/,
    );
  });

  it('writes into the course directory it is run under, as `theinference test` grades it, not into a subdirectory', async () => {
    const course = await courseDir();
    await writeFile(join(course, 'program.ts'), '');
    await writeFile(join(course, 'package.json'), '{}\n');
    await mkdir(join(course, 'notes'));
    const { exitCode, stdout } = await execa('node', [BIN, 'record', TRANSCRIPT, '--stage', 'register-tools'], {
      cwd: join(course, 'notes'),
      env: env(),
      reject: false,
    });
    expect(exitCode).toBe(0);
    expect(stdout).toContain('added         cases/register-tools/recorded-tool-heavy.json');
    expect(JSON.parse(await readFile(join(course, CASE), 'utf8'))).toHaveProperty('calls');
    expect(await readdir(join(course, 'notes'))).toEqual([]);
  });

  it('records each file once: a file given twice, a subagent file given beside the session that brings it along', async () => {
    const dir = await courseDir();
    const sessions = await mkdtemp(join(scratch.root, 'sessions-'));
    await mkdir(join(sessions, 's', 'subagents'), { recursive: true });
    const heavy = await readFile(TRANSCRIPT, 'utf8');
    await writeFile(join(sessions, 's.jsonl'), heavy);
    await writeFile(join(sessions, 's', 'subagents', 'agent-a1.jsonl'), heavy);
    const args = [
      'record',
      's/subagents/agent-a1.jsonl',
      's.jsonl',
      's.jsonl',
      '--stage',
      'register-tools',
      '--dir',
      dir,
    ];
    const { exitCode, stdout } = await execa('node', [BIN, ...args], { cwd: sessions, env: env(), reject: false });
    expect(exitCode).toBe(0);
    expect(stdout.split('\n').slice(0, 3)).toEqual([
      's/subagents/agent-a1.jsonl: left out, read already as a subagent of s.jsonl',
      's.jsonl: given twice, recorded once',
      '',
    ]);
    expect(await readdir(join(dir, 'cases', 'register-tools'))).toEqual(['recorded-s.json']);
  });

  it('exits 2 when no call could be replayed, saying so (both calls of short.jsonl were rejected by the user)', async () => {
    const course = await courseDir();
    const short = join(REPO, 'test', 'fixtures', 'transcripts', 'spotter', 'short.jsonl');
    const { exitCode, stdout, stderr } = await execa(
      'node',
      [BIN, 'record', short, '--stage', 'register-tools', '--dir', course],
      { cwd: course, env: env(), reject: false },
    );
    expect(exitCode).toBe(2);
    expect(stdout).toContain('  dropped      2  never ran: rejected by the user');
    expect(stderr.trim()).toBe(
      'error: no call of these transcripts could be replayed, so there is no case to write (the report above says why each was dropped)',
    );
    expect(await readdir(course)).toEqual([]);
  });

  it('exits 2 saying so when cases recorded before hold every call that reproduced, and how to record it again', async () => {
    const course = await courseDir();
    expect((await record(course, '--name', 'recorded-planted')).exitCode).toBe(0);
    const { exitCode, stdout, stderr } = await record(course);
    expect(exitCode).toBe(2);
    expect(stdout).toContain(
      '  dropped      2  in a case not written: the same calls from the same files as recorded-planted, recorded before',
    );
    expect(stderr.trim()).toBe(
      'error: every call of these transcripts that reproduced is in a case recorded before already (recorded-planted), so there is no new case to write: those cases stand as they are. To record this transcript again in their place, record it under their name: --name recorded-planted (with --force if what it makes differs).',
    );
    expect(await readdir(join(course, 'cases', 'register-tools'))).toEqual(['recorded-planted.json']);
  });

  it('--help shows --redact without a `(default: [])`', async () => {
    const { exitCode, stdout } = await execa('node', [BIN, 'record', '--help'], { env: env(), reject: false });
    expect(exitCode).toBe(0);
    expect(stdout).toContain('--redact <regex>');
    expect(stdout).not.toContain('[]');
    // --dir defaults as `test`'s does (courseDirFor): the nearest course directory, not the current one.
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      '(default: the nearest directory at or above this one with program.ts and a package.json, else this one)',
    );
  });

  it('exits 2 naming a transcript it cannot use, and an unknown stage', async () => {
    const course = await courseDir();
    const missing = await execa('node', [BIN, 'record', 'nope.jsonl', '--stage', 'register-tools'], {
      cwd: course,
      env: env(),
      reject: false,
    });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim()).toBe('error: cannot record:\nnope.jsonl: no such file: check the path');
    const stage = await execa('node', [BIN, 'record', TRANSCRIPT, '--stage', 'nope'], {
      cwd: course,
      env: env(),
      reject: false,
    });
    expect(stage.exitCode).toBe(2);
    expect(stage.stderr).toMatch(/^error: unknown stage 'nope'/);
    expect(await readdir(course)).toEqual([]);
  });
});

describe('theinference record, interrupted', () => {
  // A Claude Code session of three slow commands, made here: its replay is under way while they sleep.
  const slowSession = (): string => {
    const base = {
      sessionId: '11111111-2222-4333-8444-555555555555',
      cwd: '/home/ada/slow',
      timestamp: '2026-01-01T00:00:00.000Z',
    };
    const lines = [0, 1, 2].flatMap((i) => [
      {
        ...base,
        type: 'assistant',
        uuid: `a${i}`,
        message: {
          id: `msg_${i}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: 'sleep 3.21' } }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: `u${i}`,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: '' }] },
        toolUseResult: { stdout: '', stderr: '', interrupted: false },
      },
    ]);
    return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  };

  it('stops cleanly on Ctrl-C: exit 130, the replayed commands killed, nothing written, no temp dir left', async () => {
    const dir = await courseDir();
    const transcript = join(scratch.root, 'slow.jsonl');
    await writeFile(transcript, slowSession());
    const recorder = execa('node', [BIN, 'record', transcript, '--stage', 'register-tools', '--dir', dir], {
      cwd: dir,
      env: env(),
      reject: false,
    });
    while (!(await processRunning('sleep 3.21'))) await new Promise((resolve) => setTimeout(resolve, 50));
    recorder.kill('SIGINT');
    const { exitCode, stderr } = await recorder;
    expect(exitCode).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(await processRunning('sleep 3.21')).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});
