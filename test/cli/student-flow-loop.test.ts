// A student's course from an empty directory, end to end, as the README tells it, from an `npm pack` tarball:
// `theinference init` writes the first stage, agent-loop; after `npm install` every case fails with the stub's
// message; the stub and a solution type-check against the package's types (LoopRequest, Execute, the SDK's); the
// solution grades green in the sandbox with the SDK the install brought, and the green run names the next command.
// That command, run as printed in the same directory, adds the next stage, and `npm test` grades it and, after it,
// agent-loop (--previous). One install is shared by every step, so the steps run in order.
import { STAGES } from '../../src/course/stages.ts';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { INSTALL, packTarball, runAsStudent as run } from '../support/pack-tarball.ts';
import { REPO } from '../support/reference-course.ts';

const STEP_TIMEOUT_MS = 240_000;

let root: string;
let tarball: string;
let course: string;
let loopCases: number;
// The command the green agent-loop run printed as the next step.
let nextCommand: string | undefined;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-student-loop-'));
  // As a student's home is to the sandbox, which a grader run as root starts as nobody.
  await chmod(root, 0o755);
  course = join(root, 'my-agent');
  loopCases = (await loadCases(REPO, 'agent-loop')).length;
  tarball = await packTarball(root);
}, STEP_TIMEOUT_MS);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// The reference loop as a student writes it: its types from the package, not from this repository's files.
async function writeReferenceLoop(): Promise<void> {
  const reference = await readFile(join(REPO, 'src', 'agent-loop.ts'), 'utf8');
  const local =
    "import type { Execute } from './contract.ts';\nimport type { LoopRequest } from './loop-request.ts';\n";
  expect(reference).toContain(local);
  await writeFile(
    join(course, 'src', 'agent-loop.ts'),
    reference.replace(local, "import type { Execute, LoopRequest } from 'theinference';\n"),
  );
}

describe("a student's course, from the first stage", () => {
  it('init with no stage writes agent-loop in an empty directory and says what to run next', async () => {
    const { exitCode, stdout, stderr } = await run(
      'node',
      [join(REPO, 'bin', 'theinference.js'), 'init', 'my-agent', '--from', tarball],
      root,
    );
    expect([exitCode, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(/^Wrote a course directory for the stage agent-loop in my-agent:\n/);
    expect(stdout).toContain('  src/agent-loop.ts yours to write: runLoop (the course page "Run the loop")\n');
    expect(stdout).toMatch(/\nNext:\n {2}cd my-agent\n {2}npm install\n {2}npm run watch /);
  });

  it(
    'npm install brings theinference from the tarball and the SDK the loop is given',
    async () => {
      const { exitCode, stderr } = await run('npm', INSTALL, course);
      expect([exitCode, stderr]).toEqual([0, '']);
      const sdk = JSON.parse(
        await readFile(join(course, 'node_modules', '@anthropic-ai', 'sdk', 'package.json'), 'utf8'),
      ) as { version: string };
      expect(sdk.version).toMatch(/^1\./);
      // program.ts's first lines name where the cases are: a directory the course directory has, once installed.
      const shown = [
        ...(await readFile(join(course, 'program.ts'), 'utf8')).matchAll(/program\.ts \w+ (\S+)\/<case>\.json/g),
      ];
      expect(shown.length).toBeGreaterThan(0);
      for (const [, dir = ''] of shown) expect(existsSync(join(course, dir)), dir).toBe(true);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    "the first grade fails every case with the stub's message, on one screen",
    async () => {
      const { exitCode, stdout, stderr } = await run('npm', ['test', '--silent'], course);
      expect(exitCode, `${stdout}${stderr}`).toBe(1);
      expect(stdout.split('\n').length).toBeLessThan(50);
      expect(
        stdout.match(/hint: src\/agent-loop\.ts is still the stub `theinference init` wrote: write runLoop/g),
      ).toHaveLength(1);
      expect(stdout).toContain(`\n  ${loopCases - 1} more cases fail the same way:\n`);
      expect(stdout).toContain(`\n0 passed, ${loopCases} failed\n`);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'the stub and a correct runLoop type-check against the types the package exports, and the loop grades green',
    async () => {
      expect(await run('npm', ['run', '--silent', 'typecheck'], course)).toMatchObject({ exitCode: 0, stdout: '' });
      await writeReferenceLoop();
      expect(await run('npm', ['run', '--silent', 'typecheck'], course)).toMatchObject({ exitCode: 0, stdout: '' });
      const { exitCode, stdout } = await run('npm', ['test', '--silent'], course);
      expect(stdout.split('\n')).toContain(`${loopCases} passed, 0 failed`);
      expect(exitCode).toBe(0);
      // The green run says what comes next: the one command, which the next step runs as printed.
      nextCommand = stdout.split('\n').find((l) => l.startsWith('  npx theinference init --stage '));
      expect(nextCommand).toBe('  npx theinference init --stage register-tools');
      expect(stdout).toContain('Then `npm test` grades register-tools, then agent-loop');
    },
    STEP_TIMEOUT_MS,
  );

  it('the installed package holds no reference loop, and snapshot says where to run it', async () => {
    const installed = join(course, 'node_modules', 'theinference');
    for (const file of ['src/agent-loop.ts', 'dist/agent-loop.js', 'dist/agent-loop.d.ts'])
      expect(existsSync(join(installed, file)), file).toBe(false);
    const { exitCode, stderr } = await run('npx', ['theinference', 'snapshot', '--stage', 'agent-loop'], course);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('replays the reference solution (src/agent-loop.ts), which this copy of theinference');
  });

  it(
    'the command the green run printed adds the next stage; npm test grades it, then agent-loop',
    async () => {
      const [file = '', ...args] = (nextCommand ?? '').trim().split(' ');
      const added = await run(file, args, course);
      expect(added.exitCode).toBe(0);
      expect(added.stdout).toMatch(
        new RegExp(
          `^Added the stage register-tools \\("Register the toolset", stage 2 of ${STAGES.length}\\) to this directory:`,
        ),
      );
      expect((await run('npm', INSTALL, course)).exitCode).toBe(0);
      const stub = await run('npm', ['test', '--silent'], course);
      expect(stub.exitCode).toBe(1);
      expect(stub.stdout).toContain(' Stages register-tools ✗ | agent-loop ✓\n');
      await copyFile(join(REPO, 'src', 'execute.ts'), join(course, 'src', 'execute.ts'));
      const { exitCode, stdout } = await run('npm', ['test', '--silent'], course);
      const toolCases = (await loadCases(REPO, 'register-tools')).length;
      expect(stdout).toContain(' Stages register-tools ✓ | agent-loop ✓\n');
      expect(stdout.split('\n')).toContain(`${toolCases + loopCases} passed, 0 failed`);
      expect(exitCode).toBe(0);
    },
    STEP_TIMEOUT_MS * 2,
  );
});
