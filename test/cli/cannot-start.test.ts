// A program that cannot start, graded on the whole stage by the real binary: one verdict, under 40 lines of
// pretty output, its error once and a hint naming the cause; and no temp dir left behind.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { makeCourse, REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';

const { scratch, theinference } = useBinary();

describe('a program that cannot start', () => {
  // The whole stage, in two processes: each fails to load, and the report says so once.
  it.each<[string, string | undefined, (course: string) => Promise<void>, RegExp]>([
    [
      'a syntax error',
      'does-not-compile',
      async () => {},
      /^ {2}hint: \S+\/src\/execute\.ts:8:\d+ does not compile \(Expected "\)" but found ";"\): fix it and save/m,
    ],
    [
      'a package the grader does not give the program (the course directory has it installed)',
      undefined,
      async (course) => {
        const execute = join(course, 'src', 'execute.ts');
        await writeFile(execute, `import 'left-pad';\n${await readFile(execute, 'utf8')}`);
        await mkdir(join(course, 'node_modules', 'left-pad'));
        await writeFile(
          join(course, 'node_modules', 'left-pad', 'package.json'),
          '{ "name": "left-pad", "main": "i.js" }',
        );
        await writeFile(join(course, 'node_modules', 'left-pad', 'i.js'), '');
      },
      /^ {2}hint: the package `left-pad` is not one the grader gives your program \(\S+\/src\/execute\.ts imports it\): your code is graded with Node's built-in modules and the course's own packages \(@anthropic-ai\/sdk, fast-glob\) only, from theinference's own install, never from your course directory/m,
    ],
    [
      'a missing src/execute.ts',
      undefined,
      async (course) => {
        await rm(join(course, 'src', 'execute.ts'));
      },
      /^ {2}hint: src\/execute\.ts is missing: the driver imports makeExecute from it\./m,
    ],
    [
      'src/execute.ts moved to the top of the course directory',
      undefined,
      async (course) => {
        await rename(join(course, 'src', 'execute.ts'), join(course, 'execute.ts'));
      },
      /^ {2}hint: src\/execute\.ts is missing: the driver imports makeExecute from it, and your course directory has execute\.ts\. Move it back: `mv execute\.ts src\/execute\.ts`/m,
    ],
    [
      'a throw at import',
      'throws-at-import',
      async () => {},
      /^ {2}hint: your code throws `Error: dispatcher table is not ready` while it is loaded, at \S+\/src\/execute\.ts:6: /m,
    ],
    [
      'a top-level await that never settles',
      'awaits-at-import',
      async () => {},
      /^ {2}a promise never settled while the program loaded\. Node exited with code 13 .*\n(?:.*\n)*? {2}hint: an `await` at the top level of a module/m,
    ],
  ])('for %s gets one verdict, under 40 lines', async (_, scenario, arrange, hint) => {
    const course = await makeCourse(scratch, scenario);
    await arrange(course);
    const { exitCode, stdout } = await theinference(['test', '--stage', 'register-tools', '--jobs', '2'], course);
    const count = (await loadCases(REPO, 'register-tools')).length;
    expect(exitCode).toBe(1);
    expect(stdout.split('\n').length).toBeLessThan(40);
    expect(stdout).toMatch(hint);
    expect(stdout.match(/hint: /g)).toHaveLength(1);
    expect(stdout).toContain(`✗ your program did not start — none of the ${count} cases ran\n`);
    expect(stdout.split('\n').slice(-4)).toEqual([
      `0 passed, ${count} failed`,
      '',
      'Re-run just the failures:',
      // Outside CI the record names the failures; a CI job keeps none, so its line grades the stage again.
      `npx theinference test --stage register-tools${process.env.CI === undefined || process.env.CI === '' ? ' --failed' : ''}`,
    ]);
  });

  it('is said once at the top of the JSON report, its stack trimmed, not once per case', async () => {
    const course = await makeCourse(scratch, 'throws-at-import');
    const args = ['test', '--stage', 'register-tools', '--jobs', '2', '--reporter', 'json'];
    const { exitCode, stdout } = await theinference(args, course);
    const parsed = JSON.parse(stdout);
    expect([exitCode, parsed.status]).toEqual([1, 'error']);
    expect(parsed.message).toMatch(/^✗ your program did not start — none of the \d+ cases ran\n/);
    expect(parsed.message).toMatch(
      /\n {2}hint: your code throws `Error: dispatcher table is not ready` while it is loaded/,
    );
    expect(parsed.message).not.toMatch(/node:internal/);
    const said = (text: string) => text.match(/dispatcher table is not ready/g)?.length ?? 0;
    expect(said(stdout)).toBe(said(parsed.message));
    expect(new Set(parsed.tests.map((t: { message: string }) => t.message)).size).toBe(1);
  });
});
