// The catalogue's mistakes that stop a program before any case (test/fixtures/wrong-execute/load/), graded by the
// installed copy's real binary in a course directory as a student's is, in the sandbox and out of it (the package's
// files are hidden in the sandbox, so the same mistake fails otherwise there): one message, whose hint names the
// mistake and its fix.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeInstalledCourse, REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { LOAD_MISTAKES } from '../fixtures/wrong-execute/catalogue.ts';

const { scratch, env } = useBinary();

describe.each(LOAD_MISTAKES)('$slug', ({ file, hint }) => {
  it.each(['required', 'off'])('is one message naming it (--isolation %s)', async (isolation) => {
    const { dir, bin } = await makeInstalledCourse(scratch);
    await cp(join(REPO, 'test', 'fixtures', 'wrong-execute', file), join(dir, 'src', 'execute.ts'));
    const args = ['test', '--stage', 'register-tools', '--isolation', isolation];
    const { exitCode, stdout } = await execa('node', [bin, ...args], { cwd: dir, env: env(), reject: false });
    expect(exitCode).toBe(1);
    expect(stdout.match(/^✗ /gm), stdout).toEqual(['✗ ']);
    expect(stdout).toMatch(/^✗ your program did not start — none of the \d+ cases ran$/m);
    const hints = stdout.match(/^ {2}hint: .*$/gm) ?? [];
    expect(hints, stdout).toHaveLength(1);
    expect(hints[0]!.slice('  hint: '.length)).toMatch(hint);
  });
});

describe('a console.log at the top level of src/execute.ts', () => {
  it.each(['required', 'off'])('is harmless: every case passes (--isolation %s)', async (isolation) => {
    const { dir, bin } = await makeInstalledCourse(scratch);
    await cp(join(REPO, 'test', 'fixtures', 'harmless', 'top-level-console-log.ts'), join(dir, 'src', 'execute.ts'));
    const args = ['test', '--stage', 'register-tools', '--case', 'course-*', '--isolation', isolation];
    const { exitCode, stdout } = await execa('node', [bin, ...args], { cwd: dir, env: env(), reject: false });
    expect([exitCode, stdout.split('\n').at(-1)], stdout).toEqual([0, '3 passed, 0 failed']);
  });
});
