// The recording pipeline run on fixture transcripts as `theinference record --dry-run` would run it: each imported
// from test/fixtures/transcripts/, recorded into an empty course directory, nothing written. For the tests of
// sessions from the wild (issue 16), one real or real-shaped transcript per defect.
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { importTranscript } from '../../src/record/import-transcript.ts';
import { recordTranscripts, type RecordOutcome } from '../../src/record/record-transcripts.ts';
import type { RecordOptions } from '../../src/record/record-types.ts';
import { REPO, type Scratch } from '../grade/course-fixture.ts';
import { SANDBOX } from '../support/isolation.ts';
import { fixture, imported } from './formats/transcript-files.ts';

// Records fixture transcripts (paths under test/fixtures/transcripts/) into a fresh course directory.
export async function recordFixtures(
  scratch: Scratch,
  files: string[],
  options: Partial<RecordOptions> = {},
): Promise<RecordOutcome & { dir: string }> {
  const dir = options.dir ?? (await courseDir(scratch));
  const transcripts = [];
  for (const file of files) transcripts.push(imported(await importTranscript(fixture(file))));
  const outcome = await recordTranscripts(transcripts, {
    stage: 'register-tools',
    maxCalls: 25,
    bash: 'reproducible',
    redact: [],
    root: REPO,
    sandbox: SANDBOX,
    dryRun: true,
    force: false,
    env: process.env,
    ...options,
    dir,
  });
  return { ...outcome, dir };
}

// An empty course directory: cases/ with the schema, nothing else.
export async function courseDir(scratch: Scratch): Promise<string> {
  const dir = await mkdtemp(join(scratch.root, 'courses', 'wild-'));
  await mkdir(join(dir, 'cases'), { recursive: true });
  await cp(join(REPO, 'cases', 'case.schema.json'), join(dir, 'cases', 'case.schema.json'));
  return dir;
}
