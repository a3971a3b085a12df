// The lookup-table cheat's answers (test/fixtures/lookup-table/): what a student could build from the cases and
// snapshots the package ships, every stored result keyed by its case's seeded files and calls so far.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCases } from '../../src/course/load-cases.ts';
import type { DispatchCaseData } from '../../src/modes/dispatch/case.ts';
import { answerKey } from '../fixtures/lookup-table/src/answer-key.ts';
import { REPO } from './reference-course.ts';

// Writes src/answers.json into the lookup-table course directory `dir` for `stage`.
export async function writeAnswers(dir: string, stage = 'register-tools'): Promise<void> {
  const answers: Record<string, unknown> = {};
  for (const c of await loadCases(REPO, stage)) {
    const data = c.data as DispatchCaseData;
    const snapshot = JSON.parse(await readFile(join(REPO, 'snapshots', stage, `${c.name}.json`), 'utf8')) as {
      results: unknown[];
    };
    const files = Object.fromEntries(
      Object.entries(data.files ?? {}).map(([path, spec]) => [
        path,
        typeof spec === 'string'
          ? Buffer.from(spec).toString('base64')
          : 'base64' in spec
            ? spec.base64
            : `link:${spec.symlink}`,
      ]),
    );
    data.calls.forEach((_, k) => {
      answers[answerKey(files, data.calls.slice(0, k + 1))] = snapshot.results[k];
    });
  }
  await writeFile(join(dir, 'src', 'answers.json'), JSON.stringify(answers));
}
