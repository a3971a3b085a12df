// A crash while the grader starts, outside runCli: a root grader in a user namespace that maps no `nobody` cannot
// spawn its sandboxes as nobody (spawn EINVAL, thrown while the early program processes start). The binary exits 3
// with the error on stderr, and writes every report asked for with one test that says so.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';

const { scratch, env } = useBinary();

describe('a crash while the grader starts', () => {
  it('exits 3 with a message and the reports asked for, each one test saying theinference failed', async () => {
    const junit = join(scratch.root, 'junit.xml');
    const results = join(scratch.root, 'results.json');
    // Root in a namespace of its own that maps only uid 0: nobody (65534) is no one there.
    const run = await execa(
      'unshare',
      [
        '--user',
        '--map-root-user',
        'node',
        join(REPO, 'bin', 'theinference.js'),
        'test',
        '--stage',
        'register-tools',
        '--case',
        'course-*',
        '--reporter',
        `junit:${junit}`,
        '--reporter',
        `gradescope:${results}`,
      ],
      { cwd: REPO, env: env(), reject: false },
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/^internal error \(a bug in theinference, please report it\):\nError: spawn EINVAL\n/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testcase classname="register-tools" name="theinference"');
    expect(xml).toContain('<error type="crash" message="spawn EINVAL">');
    const gradescope = JSON.parse(await readFile(results, 'utf8'));
    expect(gradescope.tests).toHaveLength(1);
    expect(gradescope.tests[0]).toMatchObject({ name: 'theinference', score: 0, status: 'failed' });
    expect(gradescope.tests[0].output).toContain('a bug in theinference, not in this submission');
  });
});
