// What staging a submission costs (issue 14): the grader's copy of a course directory's files, made before a run
// reads them (src/grade/run/isolation/stage-submission.ts). Measured alone, in process, each round after an edit
// so that the copy is rewritten, as after a save in watch mode.
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stageSubmission } from '../src/grade/run/isolation/stage-submission.ts';
import { copyCourse } from './course-copy.ts';

// Milliseconds per staging (read the submission, rewrite the copy), one sample a round.
export async function measureStaging(rounds: number): Promise<number[]> {
  const course = await copyCourse();
  try {
    const dir = await realpath(course.dir);
    const execute = join(dir, 'src', 'execute.ts');
    const text = await readFile(execute, 'utf8');
    const samples: number[] = [];
    for (let round = 0; round <= rounds; round += 1) {
      await writeFile(execute, `${text}// save ${round}\n`);
      const start = performance.now();
      const { hold } = await stageSubmission(dir);
      const ms = performance.now() - start;
      await hold.release();
      if (round > 0) samples.push(ms);
    }
    return samples;
  } finally {
    await course.remove();
  }
}
