// A recorded case whose reference changed, through `theinference snapshot` and its review: the run, --check and
// the review each say whether the reference still reproduces what the recorded agent was answered, without the
// transcript, from the case's recording.
import { PassThrough } from 'node:stream';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.ts';
import { makeCourse, REPO, useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();
const NAME = 'recorded-hello-world-script';
let root: string;

// A package whose register-tools stage is the recorded hello-world case, with its snapshot and recording, and whose
// reference's Write no longer says it created the file.
beforeAll(async () => {
  root = await makeCourse(scratch);
  for (const dir of ['cases', 'snapshots', 'recordings']) {
    await mkdir(join(root, dir, 'register-tools'), { recursive: true });
    await cp(join(REPO, dir, 'register-tools', `${NAME}.json`), join(root, dir, 'register-tools', `${NAME}.json`));
  }
  await cp(join(REPO, 'cases', 'case.schema.json'), join(root, 'cases', 'case.schema.json'));
  const create = join(root, 'src', 'tools', 'create.ts');
  const source = await readFile(create, 'utf8');
  expect(source).toContain("'overwritten' : 'created'} successfully at");
  await writeFile(create, source.replace("'overwritten' : 'created'} successfully at", "'overwritten' : 'saved'} at"));
});

async function snapshot(...argv: string[]) {
  const stdout = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  const stdin = new PassThrough();
  stdin.end('q\n');
  const io = { cwd: root, root, env: { ...process.env, NO_COLOR: '1' }, stdin, stdout, stderr: new PassThrough() };
  const code = await runCli({ ...io, argv: ['snapshot', '--stage', 'register-tools', ...argv] });
  return { code, stdout: out.join('') };
}

const DIVERGES =
  'recording: now diverges from the recorded agent at call 1 (Write): Write: created in the recording, undefined in the replay';

describe('a recorded case re-verified', () => {
  it('--check says the changed reference now diverges from the agent, with the diff', async () => {
    const { code, stdout } = await snapshot('--check');
    expect(code).toBe(1);
    expect(stdout).toContain(`stale      ${NAME} — wording only\n    ${DIVERGES}\n`);
    expect(stdout).toContain('      - recorded (the agent)\n      + reference now\n');
    expect(stdout).toContain(
      '      - File created successfully at: <sandbox>/hello.sh\n      + File saved at: <sandbox>/hello.sh\n',
    );
  });

  it('the run and the review say so too', async () => {
    expect((await snapshot()).stdout).toContain(DIVERGES);
    const review = await snapshot('--review');
    expect(review.stdout).toContain(`── 1 of 1 · register-tools/${NAME} · changed · wording only ──`);
    expect(review.stdout).toContain(DIVERGES);
  });
});
