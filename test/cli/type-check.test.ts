// The course's type check beside its cases, end to end: a course directory with the grader installed in it (as
// `npm install` makes it), graded by that grader, with a type error in the student's file that no case sees.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachePath } from '../../src/grade/course-cache.ts';
import { useScratch } from '../grade/course-fixture.ts';
import { REPO, writeInstall, writeReferenceCourse } from '../support/reference-course.ts';

const scratch = useScratch();
let course: string;
let bin: string;

// The reference dispatcher with one line no case runs that tsc refuses.
const TYPE_ERROR = "\nexport const unused: number = 'text';\n";
const ERROR_LINE = /^ {3}src\/execute\.ts:\d+:14 {2}TS2322 Type 'string' is not assignable to type 'number'\.$/m;

beforeAll(async () => {
  course = join(scratch.root, 'course');
  await writeReferenceCourse(course, { linkModules: false });
  bin = await writeInstall(course);
  // The reference imports its contract from a file of its own. The course's compiler settings, but program.ts left
  // out of them: its types come from dist/, which an install of sources has not.
  await cp(join(REPO, 'src', 'contract.ts'), join(course, 'src', 'contract.ts'));
  const tsconfig = await readFile(join(REPO, 'course-template', 'tsconfig.json'), 'utf8');
  await writeFile(join(course, 'tsconfig.json'), tsconfig.replace('["program.ts", "src"]', '["src"]'));
  const execute = join(course, 'src', 'execute.ts');
  await writeFile(execute, (await readFile(execute, 'utf8')) + TYPE_ERROR);
}, 120_000);

function grade(args: string[] = [], from = bin) {
  return execa('node', [from, 'test', '--stage', 'register-tools', '--case', 'bash-environment', ...args], {
    cwd: course,
    // The suite turns the type check off by default (vitest.config.ts): these runs take the course's setting.
    env: { NO_COLOR: '1', THEINFERENCE_TYPECHECK: '' },
    reject: false,
  });
}

async function setTypeCheck(setting: string | undefined): Promise<void> {
  const manifest = { name: 'course', private: true, type: 'module' };
  await writeFile(
    join(course, 'package.json'),
    JSON.stringify(setting === undefined ? manifest : { ...manifest, theinference: { typecheck: setting } }),
  );
}

describe('the type check beside the cases', () => {
  it('a type error no case sees is one note naming its file and line, after the verdict, and the run passes', async () => {
    await setTypeCheck(undefined);
    const { exitCode, stdout } = await grade();
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/1 passed, 0 failed[\s\S]*\n Types {2}1 type error \(npm run typecheck\); not graded/);
    expect(stdout).toMatch(ERROR_LINE);
  });

  it('its answer is kept until a file tsc reads changes', async () => {
    await setTypeCheck(undefined);
    await grade();
    const file = cachePath(course, 'typecheck.json');
    const record = JSON.parse(await readFile(file, 'utf8')) as { result: { errors: { message: string }[] } };
    record.result.errors[0]!.message = 'the answer on record';
    await writeFile(file, JSON.stringify(record));
    expect((await grade()).stdout).toContain('TS2322 the answer on record');
    const execute = join(course, 'src', 'execute.ts');
    await writeFile(execute, `${await readFile(execute, 'utf8')}// a change\n`);
    const { stdout } = await grade();
    expect(stdout).not.toContain('the answer on record');
    expect(stdout).toMatch(ERROR_LINE);
  });

  it('a course that says "typecheck": "fail" fails the run on a type error, its cases passing', async () => {
    await setTypeCheck('fail');
    const { exitCode, stdout } = await grade();
    expect(exitCode).toBe(1);
    expect(stdout).toContain('1 passed, 0 failed');
    expect(stdout).toContain('type error (npm run typecheck); this course fails the run on a type error');
  });

  it('beside a CI format, a course that grades its type check says so on stderr', async () => {
    await setTypeCheck('fail');
    const { exitCode, stdout, stderr } = await grade(['--reporter', 'junit']);
    expect(exitCode).toBe(1);
    expect(stdout).not.toContain('Types');
    expect(stderr).toMatch(ERROR_LINE);
  });

  it('beside a CI format, a course that does not grade it is not type-checked', async () => {
    await setTypeCheck(undefined);
    const { exitCode, stderr, stdout } = await grade(['--reporter', 'junit']);
    expect(exitCode).toBe(0);
    expect(stdout + stderr).not.toContain('TS2322');
  });

  it('"typecheck": "off" runs none', async () => {
    await setTypeCheck('off');
    const { exitCode, stdout } = await grade();
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain('Types');
  });

  it('a course graded by a grader installed elsewhere (a submission, a class) is graded by its cases alone', async () => {
    await setTypeCheck('fail');
    const { exitCode, stdout } = await grade(['--dir', course], join(REPO, 'bin', 'theinference.js'));
    expect(exitCode).toBe(0);
    expect(stdout).toContain('1 passed, 0 failed');
    expect(stdout).toContain(' Types  not checked: theinference is not installed in this course directory');
  });

  it('a setting that is none of the three stops the run and names them', async () => {
    await setTypeCheck('strict');
    const { exitCode, stderr } = await grade();
    expect(exitCode).toBe(2);
    expect(stderr).toContain(
      'give "note" (type errors shown, not graded), "fail" (a type error fails the run) or "off"',
    );
  });

  it('in watch mode the note follows the verdict on screen, and q still quits', async () => {
    await setTypeCheck(undefined);
    const child = execa('node', [bin, 'test', '--stage', 'register-tools', '--case', 'bash-environment', '--watch'], {
      cwd: course,
      env: { NO_COLOR: '1', THEINFERENCE_TYPECHECK: '' },
      stdin: 'pipe',
      reject: false,
      buffer: false,
    });
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => (text += chunk));
    child.stderr?.resume();
    const deadline = Date.now() + 45_000;
    while (!ERROR_LINE.test(text) && Date.now() < deadline && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.stdin?.write('q\n');
    const { exitCode } = await child;
    expect(text).toMatch(/1 passed, 0 failed[\s\S]* Types {2}1 type error[^\n]*\n {3}src\/execute\.ts:/);
    expect(exitCode).toBe(0);
  }, 90_000);

  it('a clean course says nothing of types', async () => {
    await setTypeCheck(undefined);
    const execute = join(course, 'src', 'execute.ts');
    await writeFile(execute, (await readFile(execute, 'utf8')).replace(TYPE_ERROR, '\n'));
    const { exitCode, stdout } = await grade();
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain('Types');
  });
});
