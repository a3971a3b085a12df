// `theinference snapshot --check` holds the recorded cases of a stage to the recorder's privacy gate: a recording
// that carries an `ls -l` owner or a dash-encoded home fails the check, named and escaped; a clean suite passes.
import { PassThrough } from 'node:stream';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.ts';
import { makeCourse, REPO, useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();
const NAME = 'recorded-hello-world-script';

async function course(): Promise<string> {
  const root = await makeCourse(scratch);
  for (const dir of ['cases', 'snapshots', 'recordings'])
    await mkdir(join(root, dir, 'register-tools'), { recursive: true });
  await cp(join(REPO, 'cases', 'case.schema.json'), join(root, 'cases', 'case.schema.json'));
  for (const dir of ['cases', 'snapshots', 'recordings'])
    await cp(join(REPO, dir, 'register-tools', `${NAME}.json`), join(root, dir, 'register-tools', `${NAME}.json`));
  return root;
}

async function check(root: string) {
  const stdout = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  const io = {
    cwd: root,
    root,
    env: { ...process.env, NO_COLOR: '1' },
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
  };
  const code = await runCli({ ...io, argv: ['snapshot', '--stage', 'register-tools', '--check'] });
  return { code, stdout: out.join('') };
}

describe('snapshot --check: privacy', () => {
  it('passes a recorded suite that carries nothing of a machine', async () => {
    const { code, stdout } = await check(await course());
    expect(stdout).not.toContain('privacy');
    expect(code).toBe(0);
  });

  it("fails on a recording that keeps an `ls -l` owner and a Claude Code project's dash-encoded home, naming each", async () => {
    const root = await course();
    const file = join(root, 'recordings', 'register-tools', `${NAME}.json`);
    const recording = JSON.parse(await readFile(file, 'utf8'));
    recording.calls[0].recorded.content =
      'total 8\n-rw-r--r--  1 zoe  staff  42 Mar  3 10:00 hello.sh\nsee ~/.claude/projects/-Users-zoe-hello/\u001b[2J';
    await writeFile(file, `${JSON.stringify(recording, null, 2)}\n`);
    const { code, stdout } = await check(root);
    expect(stdout).toContain(
      `privacy: 1 recorded file would carry a machine's name or a secret (re-record, or run \`theinference redact\`):\n  recordings/register-tools/${NAME}.json: file owner: zoe, home directory: -Users-zoe`,
    );
    expect(code).toBe(1);
  });
});
