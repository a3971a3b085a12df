// `theinference redact`, the real binary, on a course directory holding recorded cases as an older recorder wrote
// them: secrets it knows today (an e-mail address) and an author's pattern are removed from the cases, their
// snapshots and pending snapshots in place, each checked against the reference; a redaction that would change
// what a call does is refused, and then nothing at all is written. Agent-loop cases alike: their model turns, tool
// inputs and outputs, and their recorded streams.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatSnapshot } from '../../src/course/snapshot-file.ts';
import { runLoopCase } from '../../src/modes/loop/driver.ts';
import { makeCourse, REPO, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();
const BIN = join(REPO, 'bin', 'theinference.js');
const STAGE = 'register-tools';
let course: string;

const caseFile = (name: string) => join(course, 'cases', STAGE, `${name}.json`);
const snapshotFile = (name: string, ext = '.json') => join(course, 'snapshots', STAGE, `${name}${ext}`);

// A recorded case whose script prints `text`, with its snapshot (and a pending snapshot, when asked).
async function recorded(name: string, script: string, printed: string, pending = false): Promise<void> {
  const data = JSON.parse(await readFile(join(REPO, 'cases', STAGE, 'recorded-hello-world-script.json'), 'utf8'));
  data.calls[0].input.file_text = `#!/bin/bash\n${script}\n`;
  await writeFile(caseFile(name), `${JSON.stringify(data, null, 2)}\n`);
  const snapshot = formatSnapshot({
    results: [
      { content: 'File created successfully at: <sandbox>/hello.sh' },
      { content: printed, exit_code: 0, is_error: false },
    ],
  });
  await writeFile(snapshotFile(name), snapshot);
  if (pending) await writeFile(snapshotFile(name, '.json.new'), snapshot);
}

async function files(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const dir of ['cases', 'snapshots'])
    for (const f of await readdir(join(course, dir, STAGE)))
      out[`${dir}/${STAGE}/${f}`] = await readFile(join(course, dir, STAGE, f), 'utf8');
  return out;
}

const redact = (...args: string[]) =>
  execa('node', [BIN, 'redact', '--stage', STAGE, ...args], {
    cwd: course,
    env: { NO_COLOR: '1', TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' },
    reject: false,
  });

beforeEach(async () => {
  course = await makeCourse(scratch);
  await mkdir(join(course, 'cases', STAGE), { recursive: true });
  await mkdir(join(course, 'snapshots', STAGE), { recursive: true });
  await cp(join(REPO, 'cases', 'case.schema.json'), join(course, 'cases', 'case.schema.json'));
  await recorded(
    'recorded-mail',
    'echo "mail alice@acme.io about ACME-1234"',
    'mail alice@acme.io about ACME-1234\n',
    true,
  );
  await recorded('recorded-length', 'X=secretword42\necho ${#X}', '12\n');
  // A case written by hand (no source) is never redacted.
  await writeFile(
    caseFile('echo-by-hand'),
    '{\n  "description": "alice@acme.io",\n  "calls": [{ "tool": "echo", "input": { "text": "x" } }]\n}\n',
  );
});

describe('theinference redact', () => {
  it("removes what the recorder knows today and the author's patterns from recorded cases and their snapshots", async () => {
    const { exitCode, stdout } = await redact('--redact', 'ACME-\\d+');
    expect(exitCode).toBe(0);
    expect(stdout).toContain(
      [
        'cases/register-tools/recorded-mail.json',
        '  redacted  3 e-mail addresses, 3 matches of --redact ACME-\\d+',
        '  replayed  the reference gives the redacted snapshot from the redacted case',
        '  also      its pending snapshot, redacted alike',
      ].join('\n'),
    );
    expect(stdout).toContain(
      'unchanged     cases/register-tools/recorded-length.json, snapshots/register-tools/recorded-length.json\nreplaced      cases/register-tools/recorded-mail.json, snapshots/register-tools/recorded-mail.json',
    );
    expect(stdout.split('\n').at(-1)).toBe('redacted: 1 of 2 recorded cases changed');
    const after = await files();
    for (const f of [
      'cases/register-tools/recorded-mail.json',
      'snapshots/register-tools/recorded-mail.json',
      'snapshots/register-tools/recorded-mail.json.new',
    ]) {
      expect(after[f]).not.toMatch(/alice@acme\.io|ACME-1234/);
      expect(after[f]).toContain('mail user@example.com about <redacted>');
    }
    expect(after['cases/register-tools/echo-by-hand.json']).toContain('alice@acme.io');
    // Run again: nothing left to redact.
    const again = await redact('--redact', 'ACME-\\d+');
    expect([again.exitCode, again.stdout.split('\n').at(-1)]).toEqual([0, 'redacted: 0 of 2 recorded cases changed']);
    expect(await files()).toEqual(after);
  });

  it('refuses a redaction that changes what a call does, and then writes nothing at all', async () => {
    const before = await files();
    const { exitCode, stdout, stderr } = await redact('--redact', 'secretword42');
    expect(exitCode).toBe(2);
    expect(stdout).toContain(
      'cases/register-tools/recorded-length.json\n  redacted  1 match of --redact secretword42\n  refused   the reference gives other results for the redacted case than its redacted snapshot holds',
    );
    expect(stdout).toContain('refused       cases/register-tools/recorded-length.json');
    expect(stderr).toMatch(/^error: recorded-length: not redacted, so nothing was written/);
    // recorded-mail would have changed too (its e-mail address): all or nothing.
    expect(await files()).toEqual(before);
  });

  it('--dry-run checks and reports, and writes nothing; --case limits it to the named recorded cases', async () => {
    const before = await files();
    const { exitCode, stdout } = await redact('--case', 'recorded-mail', '--dry-run');
    expect(exitCode).toBe(0);
    expect(stdout).toContain('would replace cases/register-tools/recorded-mail.json');
    expect(stdout).not.toContain('recorded-length');
    expect(await files()).toEqual(before);
  });

  it.each([
    [['--case', 'echo-by-hand'], /^error: --case 'echo-by-hand' names no recorded case of register-tools/],
    [['--redact', 'x*'], /^error: --redact 'x\*' matches empty text/],
    [['--redact', '('], /^error: --redact '\(' is not a valid regular expression/],
  ])('refuses %j with exit 2', async (args, message) => {
    const { exitCode, stderr } = await redact(...args);
    expect([exitCode, stderr]).toEqual([2, expect.stringMatching(message)]);
  });
});

describe('theinference redact on agent-loop cases', () => {
  const LOOP = 'agent-loop';
  const loopFile = (dir: string, name: string) => join(course, dir, LOOP, `${name}.json`);
  const redactLoop = () =>
    execa('node', [BIN, 'redact', '--stage', LOOP], {
      cwd: course,
      env: { NO_COLOR: '1', TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' },
      reject: false,
    });

  // A recorded loop whose model turns, tool input and tool output name alice@acme.io: turn 1's recorded stream sends
  // it in two text deltas ("alice@", "acme.io"), turn 2's in one.
  beforeEach(async () => {
    await mkdir(join(course, 'cases', LOOP), { recursive: true });
    await mkdir(join(course, 'snapshots', LOOP), { recursive: true });
    await cp(join(REPO, 'cases', 'agent-loop.schema.json'), join(course, 'cases', 'agent-loop.schema.json'));
    const data = JSON.parse(await readFile(join(REPO, 'cases', LOOP, 'stream-recorded-events.json'), 'utf8'));
    const [first, second] = data.turns;
    first.stream = first.stream
      .replace('"text":"Let me meas"', '"text":"Let me mail alice@"')
      .replace('"text":"ure both an"', '"text":"acme.io and measure both an"');
    const text = first.message.content.find((b: { type: string }) => b.type === 'text');
    text.text = text.text.replace('Let me measure', 'Let me mail alice@acme.io and measure');
    const named = (s: string) => s.replace('`node_modules` takes', '`node_modules` of alice@acme.io takes');
    second.stream = named(second.stream);
    second.message.content[0].text = named(second.message.content[0].text);
    const id = Object.keys(data.outputs)[0] as string;
    data.outputs[id].content = `${data.outputs[id].content}\nowner: alice@acme.io`;
    data.source = { capture: 'live.jsonl' };
    await writeFile(loopFile('cases', 'recorded-mail-loop'), `${JSON.stringify(data, null, 2)}\n`);
    await writeFile(loopFile('snapshots', 'recorded-mail-loop'), formatSnapshot({ results: await runLoopCase(data) }));
  });

  it('removes it from the turns, the outputs and the snapshot, and drops the stream that held it in pieces', async () => {
    const { exitCode, stdout } = await redactLoop();
    expect(exitCode).toBe(0);
    expect(stdout).toContain(
      '  streams   turn 1: its recorded stream held what was redacted in pieces over its events, so it was dropped',
    );
    expect(stdout).toContain('replaced      cases/agent-loop/recorded-mail-loop.json');
    const caseText = await readFile(loopFile('cases', 'recorded-mail-loop'), 'utf8');
    const snapshot = await readFile(loopFile('snapshots', 'recorded-mail-loop'), 'utf8');
    for (const text of [caseText, snapshot]) {
      expect(text).not.toMatch(/alice@|acme\.io/);
      expect(text).toContain('user@example.com');
    }
    const data = JSON.parse(caseText);
    expect(data.turns.map((t: { stream?: string }) => t.stream !== undefined)).toEqual([false, true]);
    expect(data.turns[1].stream).toContain('`node_modules` of user@example.com takes');
    // The snapshot is what the reference loop gives from the redacted case.
    expect(snapshot).toBe(formatSnapshot({ results: await runLoopCase(data) }));
  });
});
