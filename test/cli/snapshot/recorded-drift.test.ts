// A recorded case whose reference changed, through `theinference snapshot` and its review: the run, --check and
// the review each say whether the reference still reproduces what the recorded agent was answered, without the
// transcript, from the case's recording.
import { chmod, cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();
const NAME = 'recorded-hello-world-script';
let root: string;

// A copy of this package whose register-tools stage is the recorded hello-world case, with its snapshot and
// recording, and whose reference's Write no longer says it created the file. The reference is the package's own (its
// driver gives makeExecute the package's tools), so the command run is the copy's own bin.
beforeAll(async () => {
  root = await mkdtemp(join(scratch.root, 'package-'));
  // The sandbox runs the reference as another user, who reads the package as anyone may.
  await chmod(root, 0o755);
  for (const entry of ['bin', 'src', 'package.json', 'tsconfig.json', 'course-template'])
    await cp(join(REPO, entry), join(root, entry), { recursive: true });
  await symlink(join(REPO, 'node_modules'), join(root, 'node_modules'));
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
  const { exitCode, stdout, stderr } = await execa(
    process.execPath,
    [join(root, 'bin', 'theinference.js'), 'snapshot', '--stage', 'register-tools', ...argv],
    { cwd: root, input: 'q\n', env: { NO_COLOR: '1' }, reject: false },
  );
  // A misuse (exit 2) is the test's own: said whole.
  if (exitCode === 2) throw new Error(stderr);
  return { code: exitCode, stdout };
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
