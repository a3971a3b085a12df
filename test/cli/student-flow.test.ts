// A student's first hour at register-tools, end to end, as the README tells it: `theinference init --stage
// register-tools` in an empty directory, `npm install` of the package from a tarball (`npm pack` of this repository, built afresh), a first grade in
// which every case fails with the stub's message on one screen, the stub and a solution type-checked against the
// types the package exports, then a correct src/execute.ts graded green from a subdirectory. One install is
// shared by every step, so the steps run in order.
import { existsSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { INSTALL, packTarball, runAsStudent } from '../support/pack-tarball.ts';
import { REPO } from '../support/reference-course.ts';

const STEP_TIMEOUT_MS = 180_000;

let root: string;
let tarball: string;
let course: string;
let caseCount: number;

const run = runAsStudent;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-student-'));
  // As a student's home is to the sandbox, which a grader run as root starts as nobody.
  await chmod(root, 0o755);
  course = join(root, 'my-course');
  caseCount = (await loadCases(REPO, 'register-tools')).length;
  tarball = await packTarball(root);
}, STEP_TIMEOUT_MS);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("a student's first hour", () => {
  it('init writes a course directory in an empty one and says what to run next', async () => {
    const { exitCode, stdout, stderr } = await run(
      'node',
      [join(REPO, 'bin', 'theinference.js'), 'init', 'my-course', '--stage', 'register-tools', '--from', tarball],
      root,
    );
    expect([exitCode, stderr]).toEqual([0, '']);
    expect(stdout).toContain(`theinference from file:../${tarball.slice(root.length + 1)}`);
    expect(stdout).toMatch(/\nNext:\n {2}cd my-course\n {2}npm install\n {2}npm run watch /);
  });

  it(
    'npm install fetches theinference from the tarball, and what the tools need',
    async () => {
      const { exitCode, stderr } = await run('npm', INSTALL, course);
      expect([exitCode, stderr]).toEqual([0, '']);
      const installed = JSON.parse(
        await readFile(join(course, 'node_modules', 'theinference', 'package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version).toMatch(/^\d+\.\d+\.\d+/);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    "the first grade fails every case with the stub's message, on one screen",
    async () => {
      const { exitCode, stdout } = await run('npx', ['theinference', 'test', '--stage', 'register-tools'], course);
      expect(exitCode).toBe(1);
      expect(stdout.split('\n').length, stdout).toBeLessThan(40);
      expect(
        stdout.match(/hint: src\/execute\.ts is still the stub `theinference init` wrote: write makeExecute/g),
      ).toHaveLength(1);
      expect(stdout).toContain(`\n  ${caseCount - 1} more cases fail the same way:\n`);
      expect(stdout.split('\n').slice(-4)).toEqual([
        `0 passed, ${caseCount} failed`,
        '',
        'Re-run just the failures:',
        'npx theinference test --stage register-tools --failed',
      ]);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'the stub type-checks against the types the package exports',
    async () => {
      const { exitCode, stdout } = await run('npm', ['run', '--silent', 'typecheck'], course);
      expect([exitCode, stdout]).toEqual([0, '']);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'a correct makeExecute, importing those types, type-checks and grades green from a subdirectory',
    async () => {
      const reference = await readFile(join(REPO, 'src', 'execute.ts'), 'utf8');
      const header =
        "import type { Execute } from './contract.ts';\nimport type { Tools } from './tools/index.ts';\n\nexport type { Execute } from './contract.ts';\n";
      expect(reference.startsWith(header)).toBe(true);
      await writeFile(
        join(course, 'src', 'execute.ts'),
        `import type { Execute, Tools } from 'theinference';\n${reference.slice(header.length)}`,
      );
      expect((await run('npm', ['run', '--silent', 'typecheck'], course)).exitCode).toBe(0);
      const { exitCode, stdout } = await run(
        'npx',
        ['theinference', 'test', '--stage', 'register-tools'],
        join(course, 'src', 'tools'),
      );
      expect(stdout.split('\n')).toContain(`${caseCount} passed, 0 failed`);
      expect(exitCode).toBe(0);
    },
    STEP_TIMEOUT_MS,
  );

  it("the course page's own skeleton, a plain switch returning without a promise, type-checks", async () => {
    const skeleton = [
      "import type { Execute, Tools } from 'theinference';",
      '',
      'export function makeExecute(tools: Tools): Execute {',
      '  return (name, input: any) => {',
      '    switch (name) {',
      "      case 'Read':",
      "      case 'view':",
      '        return tools.view(input.path, input.view_range);',
      "      case 'echo':",
      '        return { content: input.text };',
      '      default:',
      '        return { content: `unknown tool: ${name}`, is_error: true };',
      '    }',
      '  };',
      '}',
      '',
    ].join('\n');
    const solution = await readFile(join(course, 'src', 'execute.ts'), 'utf8');
    try {
      await writeFile(join(course, 'src', 'execute.ts'), skeleton);
      const { exitCode, stdout } = await run('npm', ['run', '--silent', 'typecheck'], course);
      expect([exitCode, stdout]).toEqual([0, '']);
    } finally {
      await writeFile(join(course, 'src', 'execute.ts'), solution);
    }
  });

  it('the installed package holds no reference dispatcher, and snapshot says where to run it', async () => {
    const installed = join(course, 'node_modules', 'theinference');
    for (const file of ['src/execute.ts', 'dist/execute.js', 'dist/execute.d.ts', 'dist/execute.js.map'])
      expect(existsSync(join(installed, file)), file).toBe(false);
    expect(await readFile(join(installed, 'dist', 'index.d.ts'), 'utf8')).not.toContain('execute');
    const { exitCode, stderr } = await run('npx', ['theinference', 'snapshot', '--stage', 'register-tools'], course);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('replays the reference solution (src/execute.ts), which this copy of theinference');
    expect(stderr).toContain('Run it in the course repository, a git checkout of theinference');
  });

  it('the installed package exports recordExecute as theinference/record', async () => {
    const script = "const m = await import('theinference/record'); console.log(typeof m.recordExecute);";
    const { exitCode, stdout } = await run('node', ['--input-type=module', '-e', script], course);
    expect(stdout.trim()).toBe('function');
    expect(exitCode).toBe(0);
  });

  it('init run from the installed package names the tarball it came from, seen from the new directory', async () => {
    const { exitCode } = await run('npx', ['theinference', 'init', '../second', '--stage', 'register-tools'], course);
    expect(exitCode).toBe(0);
    const manifest = JSON.parse(await readFile(join(root, 'second', 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(manifest.devDependencies.theinference).toBe(`file:../${tarball.slice(root.length + 1)}`);
  });

  // A few of test/fixtures/wrong-execute/, graded by the installed copy as a student's course has it: one message
  // per mistake, whose hint names it (sandboxed, and for the types imported as values, unsandboxed too, where the
  // package's files are there to load).
  it.each<[string, string, RegExp[]]>([
    ['glob-arguments-swapped.ts', 'required', [/^`Glob` and `glob` call tools\.glob\(input\.path, input\.pattern\)/]],
    ['bash-drops-fields.ts', 'required', [/^`Bash` and `bash` drop `exit_code` and `is_error`/]],
    [
      'missing-alias-str-replace-throws.ts',
      'required',
      [/^the alias `str_replace` is not wired/, /^execute threw \(Error: unknown tool: NAME\) on a name outside/],
    ],
    [
      'load/import-without-type.ts',
      'required',
      [/imports from 'theinference' as a value, but the package exports only types/],
    ],
    ['load/import-without-type.ts', 'off', [/^your code imports `Execute` from 'theinference' as a value/]],
  ])(
    'the catalogue mistake %s (--isolation %s) is one message per mistake, naming it',
    async (file, isolation, hints) => {
      await cp(join(REPO, 'test', 'fixtures', 'wrong-execute', file), join(course, 'src', 'execute.ts'));
      const args = ['theinference', 'test', '--stage', 'register-tools', '--isolation', isolation];
      const { exitCode, stdout } = await run('npx', args, course);
      expect(exitCode).toBe(1);
      const said = stdout.match(/^ {2}hint: .*$/gm) ?? [];
      expect(said, stdout).toHaveLength(hints.length);
      for (const [k, hint] of hints.entries()) expect(said[k]!.slice('  hint: '.length)).toMatch(hint);
    },
    STEP_TIMEOUT_MS,
  );
});
