// Weighed and hidden cases through the real binary of an installed copy of this package: a student's dispatcher
// that forgot the Read alias fails a hidden case worth 2 points and a visible one; no reporter shows the hidden
// case's expected result, every one shows the visible one's, and the score counts the points.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeInstalledCourse, REPO, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();
let course: string;
let bin: string;
// What the hidden case expects (`1: A` as a JSON string), and what the visible one does.
const HIDDEN_EXPECTED = '1: A';
const VISIBLE_EXPECTED = '1: first';

beforeAll(async () => {
  ({ dir: course, bin } = await makeInstalledCourse(scratch));
  await writeFile(
    join(course, 'src', 'execute.ts'),
    await readFile(join(REPO, 'test', 'fixtures', 'wrong-execute', 'missing-alias-read.ts'), 'utf8'),
  );
  // The course page's own example, hidden: its description no longer quotes the result.
  const file = join(course, 'node_modules', 'theinference', 'cases', 'register-tools', 'course-read-seeded-file.json');
  const data = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(
    file,
    `${JSON.stringify({ ...data, description: 'Read of a seeded file returns its numbered lines.', points: 2, visibility: 'hidden' }, null, 2)}\n`,
  );
});

const grade = (...args: string[]) =>
  execa(
    'node',
    [
      bin,
      'test',
      '--stage',
      'register-tools',
      '--case',
      'course-read-seeded-file',
      '--case',
      'read-routes-to-view',
      ...args,
    ],
    { cwd: course, env: { NO_COLOR: '1', TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' }, reject: false },
  );

describe('a hidden case, graded by the binary', () => {
  it.each(['pretty', 'json', 'junit', 'tap', 'github'])(
    '%s: the verdict and the hint, never the expected result',
    async (reporter) => {
      const { exitCode, stdout } = await grade('--reporter', reporter);
      expect(exitCode).toBe(1);
      expect(stdout).toContain('course-read-seeded-file');
      // The terminal shows one case of a mistake in full, a visible one when there is one: the hidden case is
      // named under it.
      if (reporter === 'pretty')
        expect(stdout).toContain('1 more case fails the same way:\n    course-read-seeded-file');
      else expect(stdout).toContain('the expected result of this case is hidden');
      expect(stdout).toContain('route it to tools.view');
      expect(stdout).not.toContain(HIDDEN_EXPECTED);
      expect(stdout).toContain(VISIBLE_EXPECTED);
    },
  );

  it('counts the points: the json score and the terminal summary', async () => {
    const json = JSON.parse((await grade('--reporter', 'json')).stdout);
    expect([json.score, json.max_score]).toEqual([0, 3]);
    expect(
      json.tests.map((t: { name: string; points: number; visibility: string }) => [t.name, t.points, t.visibility]),
    ).toEqual([
      ['course-read-seeded-file', 2, 'hidden'],
      ['read-routes-to-view', 1, 'visible'],
    ]);
    expect((await grade()).stdout).toContain('\n Points 0 of 3\n');
  });
});
