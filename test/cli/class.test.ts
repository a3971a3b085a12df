// Grading a class end to end: the real binary in CI mode (CI=true, the sandbox required, variants on) over real
// submission directories, a correct one, a wrong one, the init stub, a lookup table of the stored results, one
// without program.ts and one that is not an ES module package. Each gets its verdict, its own report and its row
// in the summary; the exit code is 0 only when every one passed.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { writeAnswers } from '../support/lookup-table.ts';
import { writeReferenceCourse } from '../support/reference-course.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
const { scratch, env } = useBinary();
const CASES = ['--case', 'course-*', '--case', 'story-*'];
// The 3 course cases and the stories; of them only course-bash-echo-hi has no variant.
const SELECTED = (await readdir(join(REPO, 'cases', 'register-tools'))).filter((f) =>
  /^(course|story)-.*\.json$/.test(f),
).length;

// The class: submissions/<name>, made as students would hand them in.
let root = '';
beforeAll(async () => {
  root = join(scratch.root, 'class');
  const sub = (name: string) => join(root, 'submissions', name);
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) await writeReferenceCourse(sub(name));
  await cp(join(REPO, 'test/fixtures/wrong-execute/missing-alias-read.ts'), join(sub('bob'), 'src/execute.ts'));
  await cp(join(REPO, 'course-template/src/execute.ts'), join(sub('carol'), 'src/execute.ts'));
  await cp(join(REPO, 'test/fixtures/lookup-table'), sub('dave'), { recursive: true });
  await writeAnswers(sub('dave'));
  await rm(join(sub('erin'), 'program.ts'));
  await writeFile(join(sub('frank'), 'package.json'), '{ "name": "frank", "type": "commonjs" }\n');
  await mkdir(join(root, 'reports'));
});

// `theinference test --stage register-tools …` from the class's directory, as a CI job runs it.
const grade = (args: string[]) =>
  execa('node', [BIN, 'test', '--stage', 'register-tools', ...CASES, ...args], {
    cwd: root,
    env: { ...env(), CI: 'true', THEINFERENCE_VARIANTS: undefined, THEINFERENCE_ISOLATION: undefined },
    reject: false,
  });
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'testcase' });

describe('a class in one run', () => {
  it('grades every submission, each with its report, its row in the summary and the exit code 1', async () => {
    const { exitCode, stdout } = await grade([
      '--dir',
      'submissions/*',
      '--reporter',
      'junit',
      '--output',
      'reports/{name}.xml',
      '--summary',
      'summary.json',
    ]);
    expect(exitCode).toBe(1);
    const summary = JSON.parse(await readFile(join(root, 'summary.json'), 'utf8'));
    expect(summary.seed).toEqual(expect.any(Number));
    expect(summary.submissions.map((s: Record<string, unknown>) => [s.name, s.verdict, s.passed, s.failed])).toEqual([
      ['alice', 'pass', SELECTED, 0],
      ['bob', 'fail', expect.any(Number), expect.any(Number)],
      ['carol', 'fail', 0, SELECTED],
      ['dave', 'fail', 1, SELECTED - 1],
      ['erin', 'misuse', 0, SELECTED],
      ['frank', 'misuse', 0, SELECTED],
    ]);
    expect(summary.submissions[1].failed).toBeGreaterThan(0);
    for (const s of summary.submissions) {
      expect(s.report).toBe(join(root, 'reports', `${s.name}.xml`));
      const suite = xml.parse(await readFile(s.report, 'utf8')).testsuites.testsuite;
      expect(suite.testcase).toHaveLength(SELECTED);
      // Named for the submission, its file as the grader's directory names it, each classname the student's.
      expect([suite.name, suite.file]).toEqual([s.name, `submissions/${s.name}/src/execute.ts`]);
      for (const c of suite.testcase) expect(c.classname).toBe(`${s.name}.register-tools`);
      expect(Number(suite.failures) + Number(suite.errors)).toBe(s.failed);
      // A submission that could not be graded ran no variant.
      if (s.verdict !== 'misuse')
        expect(suite.properties.property[0]).toEqual({ name: 'variants.seed', value: String(summary.seed) });
      else expect(suite.properties.property.map((p: { name: string }) => p.name)).toEqual(['score', 'max_score']);
    }
    const dave = xml.parse(await readFile(join(root, 'reports', 'dave.xml'), 'utf8')).testsuites.testsuite;
    const failures = dave.testcase.filter((c: Record<string, unknown>) => c.failure !== undefined);
    expect(failures.map((c: { failure: { message: string } }) => c.failure.message)).toEqual(
      Array.from({ length: SELECTED - 1 }, () =>
        expect.stringMatching(new RegExp(`^variant \\(seed ${summary.seed}\\): call \\d+ of \\d+`)),
      ),
    );
    expect(stdout).toMatch(new RegExp(`^ ✓ alice — ${SELECTED} passed, 0 failed$`, 'm'));
    expect(stdout).toMatch(/^ ✗ erin — misuse: \S+erin has no program\.ts\.$/m);
    expect(stdout).toContain(` submission  passed  failed  verdict\n alice           ${SELECTED}       0  pass\n`);
    expect(stdout).toMatch(/^1 of 6 submissions passed \(\d+\.\d\d s\)$/m);
  });

  it('exits 0 when every submission passed, and writes the summary as CSV', async () => {
    const { exitCode } = await grade([
      '--dir',
      'submissions/alice',
      '--dir',
      'submissions/a*',
      '--summary',
      'summary.csv',
    ]);
    expect(exitCode).toBe(0);
    expect(await readFile(join(root, 'summary.csv'), 'utf8')).toBe(
      `submission,passed,failed,verdict,message,report,score,max_score,mistakes\r\nalice,${SELECTED},0,pass,,,${SELECTED},${SELECTED},\r\n`,
    );
  });

  it('writes a summary of one course directory too, beside its full report', async () => {
    const { exitCode, stdout } = await grade(['--dir', 'submissions/bob', '--summary', 'one.json']);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^─── \d+ failed ─+$/m);
    const summary = JSON.parse(await readFile(join(root, 'one.json'), 'utf8'));
    expect(summary.submissions.map((s: { name: string; verdict: string }) => [s.name, s.verdict])).toEqual([
      ['bob', 'fail'],
    ]);
  });

  it('splits the submissions, not the cases, over a matrix', async () => {
    const shards = await Promise.all(
      ['1/2', '2/2'].map(async (shard) => {
        const run = await grade([
          '--dir',
          'submissions/*',
          '--shard',
          shard,
          '--no-variants',
          '--summary',
          `shard-${shard[0]}.json`,
        ]);
        // Each shard holds a failing submission.
        expect(run.exitCode).toBe(1);
        const summary = JSON.parse(await readFile(join(root, `shard-${shard[0]}.json`), 'utf8'));
        return summary.submissions.map((s: { name: string; passed: number; failed: number }) => [
          s.name,
          s.passed + s.failed,
        ]);
      }),
    );
    expect(shards).toEqual([
      [
        ['alice', SELECTED],
        ['carol', SELECTED],
        ['erin', SELECTED],
      ],
      [
        ['bob', SELECTED],
        ['dave', SELECTED],
        ['frank', SELECTED],
      ],
    ]);
  });

  it('writes a Gradescope results.json per submission into a directory', async () => {
    await mkdir(join(root, 'gradescope'));
    await grade([
      '--dir',
      'submissions/alice',
      '--dir',
      'submissions/dave',
      '--reporter',
      'gradescope',
      '--output',
      'gradescope',
    ]);
    const alice = JSON.parse(await readFile(join(root, 'gradescope', 'alice.json'), 'utf8'));
    const dave = JSON.parse(await readFile(join(root, 'gradescope', 'dave.json'), 'utf8'));
    expect([alice.score, alice.max_score, dave.score, dave.max_score]).toEqual([SELECTED, SELECTED, 1, SELECTED]);
    expect(dave.tests.filter((t: { status: string }) => t.status === 'failed')).toHaveLength(SELECTED - 1);
  });

  it.each([
    [
      ['--dir', 'submissions/*', '--reporter', 'junit'],
      /^error: --reporter junit writes one report per submission: give --output/,
    ],
    [
      ['--dir', 'submissions/*', '--output', 'results.xml'],
      /^error: --output "results\.xml" names one file for 6 submissions/,
    ],
    [
      ['--dir', 'submissions/*', '--output', 'submissions/{name}/r.xml'],
      /^error: --output would write alice's report to .*, inside the submission/,
    ],
    [
      ['--dir', 'submissions/*', '--failed'],
      /^error: --failed re-runs one course directory's last failures: give one --dir/,
    ],
    [['--dir', 'nobody/*'], /^error: --dir "nobody\/\*" matches no directory/],
    [
      ['--dir', 'submissions/*', '--summary', 'summary.txt'],
      /^error: --summary "summary\.txt": its extension names the format/,
    ],
  ])("exits 2 for the grader's own misuse: %j", async (args, message) => {
    const { exitCode, stderr } = await grade(args);
    expect(stderr).toMatch(message);
    expect(exitCode).toBe(2);
  });
});
