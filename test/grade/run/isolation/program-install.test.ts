// Issue 39, as a student in a dev container meets it: as root, a course directory under a directory only root may
// enter (/root is 0700), theinference installed there from a tarball by `npm install`. The grader starts the
// program as nobody, who cannot reach that install; it places a copy of what the program reads where nobody can,
// and grades green, sandboxed and with --isolation off. The copy holds no snapshot and no reference, and no temp dir
// of its making is left.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../../../src/course/load-cases.ts';
import { INSTALL, packTarball, studentEnv } from '../../../support/pack-tarball.ts';
import { REPO } from '../../../support/reference-course.ts';

const STEP_TIMEOUT_MS = 240_000;
const AS_ROOT = process.getuid?.() === 0;

let root: string;
let tmp: string;
let course: string;
let caseCount: number;

// A student's shell, its temp dir this test's (every user may enter it): the copy is made there and removed with it.
const run = (file: string, args: string[], cwd: string) =>
  execa(file, args, { cwd, env: { ...studentEnv(), TMPDIR: tmp }, extendEnv: false, reject: false });

describe.runIf(AS_ROOT)('a root grader, its install under a directory only root may enter', () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'theinference-closed-'));
    await chmod(root, 0o755);
    tmp = join(root, 'tmp');
    await mkdir(tmp, { mode: 0o755 });
    await chmod(tmp, 0o755);
    const closed = join(root, 'home');
    await mkdir(closed, { mode: 0o700 });
    await chmod(closed, 0o700);
    caseCount = (await loadCases(REPO, 'register-tools')).length;
    const tarball = await packTarball(root);
    const init = ['init', 'my-course', '--stage', 'register-tools', '--from', tarball];
    expect((await run('node', [join(REPO, 'bin', 'theinference.js'), ...init], closed)).exitCode).toBe(0);
    course = join(closed, 'my-course');
    const installed = await run('npm', INSTALL, course);
    expect([installed.exitCode, installed.stderr]).toEqual([0, '']);
    const reference = await readFile(join(REPO, 'src', 'execute.ts'), 'utf8');
    const header =
      "import type { Execute } from './contract.ts';\nimport type { Tools } from './tools/index.ts';\n\nexport type { Execute } from './contract.ts';\n";
    expect(reference.startsWith(header)).toBe(true);
    const solution = `import type { Execute, Tools } from 'theinference';\n${reference.slice(header.length)}`;
    await writeFile(join(course, 'src', 'execute.ts'), solution);
  }, STEP_TIMEOUT_MS);

  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it.each(['required', 'off'])(
    'grades a correct execute.ts green (--isolation %s)',
    async (isolation) => {
      const args = ['theinference', 'test', '--stage', 'register-tools', '--isolation', isolation];
      const { exitCode, stdout, stderr } = await run('npx', args, course);
      expect(stdout).not.toContain('did not start');
      expect([exitCode, stderr]).toEqual([0, '']);
      expect(stdout).toContain(`${caseCount} passed, 0 failed`);
      // One copy, reused by the second run; nothing half made beside it.
      const copies = (await readdir(tmp)).filter((entry) => entry.startsWith('theinference-install-'));
      expect(copies).toEqual([expect.stringMatching(/^theinference-install-[0-9a-f]{16}$/)]);
      const pkg = join(tmp, copies[0]!, 'node_modules', 'theinference');
      expect((await readdir(pkg)).sort()).toEqual(['dist', 'package.json']);
      expect(await readdir(join(pkg, 'dist'))).not.toContain('execute.js');
    },
    STEP_TIMEOUT_MS,
  );
});
