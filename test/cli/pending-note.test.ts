// `test` in a package whose snapshot of a case has a new version pending review (`<case>.json.new`, which
// `theinference snapshot` writes): the case fails against the accepted snapshot, and the run says the failure is a
// review not done yet, and how to do it. Through the real binary of an installed copy of this package.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeInstalledCourse, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();
let course: string;
let bin: string;
const STALE = 'course-glob-everything';
const CURRENT = 'course-bash-echo-hi';

beforeAll(async () => {
  ({ dir: course, bin } = await makeInstalledCourse(scratch));
  const snapshots = join(course, 'node_modules', 'theinference', 'snapshots', 'register-tools');
  // The reference's results now, pending; the accepted snapshot, older.
  await cp(join(snapshots, `${STALE}.json`), join(snapshots, `${STALE}.json.new`));
  const accepted = JSON.parse(await readFile(join(snapshots, `${STALE}.json`), 'utf8'));
  accepted.results[0].content = 'b.txt';
  await writeFile(join(snapshots, `${STALE}.json`), `${JSON.stringify(accepted, null, 2)}\n`);
});

const grade = (...args: string[]) =>
  execa('node', [bin, 'test', '--stage', 'register-tools', '--case', STALE, '--case', CURRENT, ...args], {
    cwd: course,
    env: { NO_COLOR: '1', TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' },
    reject: false,
  });

const NOTE = `note: a failed case has a new snapshot pending review (${STALE}: snapshots/register-tools/*.json.new); test grades against the accepted snapshot. Review it with \`npx theinference snapshot --stage register-tools --review\`.`;

describe('a failed case whose new snapshot is pending review', () => {
  it('the terminal report says so after the failures, and how to review it', async () => {
    const { exitCode, stdout } = await grade();
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/1 passed.*1 failed/s);
    expect(stdout.trimEnd().endsWith(NOTE)).toBe(true);
  });

  it('beside a CI format, on stderr: stdout stays the report alone', async () => {
    const { exitCode, stdout, stderr } = await grade('--reporter', 'json');
    expect(exitCode).toBe(1);
    expect(JSON.parse(stdout).failed).toBe(1);
    expect(stderr).toContain(NOTE);
  });

  it('a passing case with a pending snapshot gets no note', async () => {
    const { exitCode, stdout } = await execa('node', [bin, 'test', '--stage', 'register-tools', '--case', CURRENT], {
      cwd: course,
      env: { NO_COLOR: '1', TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' },
      reject: false,
    });
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain('pending review');
  });
});
