// `record --stage agent-loop` on a terminal: while the reference snapshots the recorded loops (seconds for a long
// session), a line on stderr says how many cases are done, and it is cleared before the report. Elsewhere (a log,
// a pipe) nothing but the report.
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCommand } from '../../../src/cli/commands/record.ts';
import { makeScratch, REPO, type Scratch } from '../../grade/course-fixture.ts';

const SESSION = join(REPO, 'test', 'fixtures', 'transcripts', 'claude-code-2.1', 'jq-pipe.jsonl');
let scratch: Scratch;
beforeAll(async () => {
  scratch = await makeScratch();
});
afterAll(async () => {
  await scratch.remove();
});

async function record(tty: boolean): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), tty ? { isTTY: true } : {});
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const flags = { operands: [SESSION], stage: 'agent-loop', dir: scratch.root, dryRun: true };
  const io = {
    cwd: scratch.root,
    env: { ...process.env, NO_COLOR: '1', TMPDIR: scratch.tmp },
    stdin: new PassThrough(),
    stdout,
    stderr,
  };
  expect(await recordCommand(flags, io)).toBe('pass');
  return { stdout: out.join(''), stderr: err.join('') };
}

describe('record --stage agent-loop, its progress', () => {
  it('on a terminal: how many cases the reference has snapshotted, then the line cleared', async () => {
    const { stdout, stderr } = await record(true);
    expect(stderr).toBe('\rsnapshotting with the reference: 1 of 1 cases (100 %)\u001b[K\r\u001b[K');
    expect(stdout).toContain('would add     cases/agent-loop/recorded-jq-pipe.json');
  });

  it('in a pipe: the report alone', async () => {
    const { stdout, stderr } = await record(false);
    expect(stderr).toBe('');
    expect(stdout).toContain('would add     cases/agent-loop/recorded-jq-pipe.json');
  });
});
