// Watch mode as a student sees it, under a pseudo-terminal: a save that breaks a route shows its first failure
// while most cases have still to run, and the whole verdict follows.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { underTerminal } from '../../support/pseudo-terminal.ts';
import { makeCourse, repo, type TestCourse } from './course-dir.ts';

let course: TestCourse | undefined;
afterEach(async () => {
  await course?.remove();
});

describe('theinference test --watch on a terminal', () => {
  it('shows the first failure of a save that drops the Read alias before most cases have run, then the verdict', async () => {
    course = await makeCourse();
    const executeFile = join(course.dir, 'src', 'execute.ts');
    const reference = await readFile(executeFile, 'utf8');
    const broken = reference.replace(/^\s*case 'Read':\n/m, '');
    expect(broken).not.toBe(reference);
    const terminal = underTerminal(
      [process.execPath, join(repo, 'bin', 'theinference.js'), 'test', '--stage', 'register-tools', '--watch'],
      { cwd: course.dir, env: { NO_COLOR: '1', TMPDIR: course.tmp, TERM: 'xterm' }, columns: 120, rows: 40 },
    );
    await terminal.waitFor('Watching for changes.', 1, 60_000);
    const firstRun = terminal.screen().length;
    await writeFile(executeFile, broken);
    await terminal.waitFor('first failure, as it came', 1, 60_000);
    await terminal.waitFor('Watching for changes.', 2, 60_000);
    const save = terminal.screen().slice(firstRun);
    const told = save.indexOf('first failure, as it came');
    const verdict = /^(\d+) passed, (\d+) failed$/m.exec(save);
    expect(verdict, save).not.toBeNull();
    const total = Number(verdict?.[1]) + Number(verdict?.[2]);
    expect(told).toBeLessThan(verdict?.index ?? 0);
    // The count drawn right after the failure: the cases judged by then.
    const count = /grading… (\d+) done/.exec(save.slice(told));
    expect(Number(count?.[1])).toBeLessThan(total / 2);
    terminal.type('q');
    expect((await terminal.ended()).exitCode).toBe(1);
  }, 150_000);
});
