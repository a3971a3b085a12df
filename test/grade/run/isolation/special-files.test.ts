// A FIFO, a unix socket and a character device wherever the grader reads a submission, in the trusted job
// (test/support/trusted-job.ts): none is ever opened before it is known to be a regular file, so none can hang the
// grader (a FIFO opened to read waits for a writer forever) or run a device's open. The grader's own records
// (timings, failures) that are not regular files read as none; a special file among the student's files is named
// in one clear warning; a package.json that is one stops the run with a message saying so. Each run is bounded by
// the step's timeout: a hang fails the test instead of stalling it.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader } from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests, survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
let grader: string;
const servers: Server[] = [];
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]));
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

type Kind = 'FIFO' | 'socket' | 'device';

// Makes a special file of `kind` at `path`. A socket is bound in a short directory of its own (a unix socket's
// path is limited to about 100 bytes) and moved into place, still listening. A device is /dev/null's (char 1 3):
// mknod needs root, as the grader's CI job (and this session) runs.
async function plant(kind: Kind, path: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  if (kind === 'FIFO') execFileSync('mkfifo', [path]);
  else if (kind === 'device') execFileSync('mknod', [path, 'c', '1', '3']);
  else {
    const short = await mkdtemp(join(scratch.tmp, 's-'));
    const server = createServer();
    servers.push(server);
    await new Promise<void>((listening) => server.listen(join(short, 's'), listening));
    await rename(join(short, 's'), path);
    await rm(short, { recursive: true, force: true });
  }
}

const RECORDS = 'node_modules/.cache/theinference';
// Where the grader reads a submission on a run that goes on: its own records, the compiler's settings, a file of
// the student's.
const PLACES = [
  `${RECORDS}/timings-register-tools.json`,
  `${RECORDS}/failed-register-tools.json`,
  'tsconfig.json',
  'src/notes.json',
];

describe.each<Kind>(['FIFO', 'socket', 'device'])('a %s', (kind) => {
  it('at the timings, the failures on record, tsconfig.json and in src/: graded, the two named, no hang', async () => {
    const submission = await checkOut(scratch.root, 'hostile-special-files');
    await rm(join(submission, 'tsconfig.json'));
    for (const place of PLACES) await plant(kind, join(submission, place));
    const step = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', 'json']);
    expect(step.exitCode).toBe(0);
    expect([...jsonTests(step.stdout).values()].map((t) => t.status)).toEqual(['pass', 'pass', 'pass']);
    expect(step.stderr).toContain('src/notes.json (not a regular file (a socket, a FIFO or a device))');
    expect(step.stderr).toContain('tsconfig.json (not a regular file (a socket, a FIFO or a device))');
  });

  it('as package.json: stops with a message saying what it is (exit 2), no hang', async () => {
    const submission = await checkOut(scratch.root, 'hostile-special-files');
    await rm(join(submission, 'package.json'));
    await plant(kind, join(submission, 'package.json'));
    const step = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect(step.exitCode).toBe(2);
    expect(step.stderr).toContain(
      `${join(submission, 'package.json')} cannot be read as JSON (it is not a regular file: a link, a FIFO or a device`,
    );
  });
});
