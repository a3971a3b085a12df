// `--failed`: the cases the last run in the course directory failed, from the record the grader keeps there
// (src/grade/failed-record.ts), checked against the stage's cases of today.
import { HarnessError } from '../../errors.ts';
import { caseFileNames, packageRoot } from '../../course/stages.ts';
import { failedRecordPath, readFailures } from '../../grade/failed-record.ts';

// The names to re-run, or an empty list when the last run had no failures still among the stage's cases.
export async function failedCases(
  dir: string,
  flags: { stage: string; case: string[]; watch?: boolean },
): Promise<string[]> {
  const stage = flags.stage;
  if (flags.case.length > 0) {
    throw new HarnessError(
      'BAD_FLAG',
      "--failed picks the cases itself (the last run's failures): drop --case, or drop --failed.",
    );
  }
  if (flags.watch === true) {
    throw new HarnessError(
      'BAD_FLAG',
      '--watch re-runs failures with its own key: drop --failed, and press f once a run has finished.',
    );
  }
  const names = await readFailures(dir, stage);
  if (names === undefined) {
    throw new HarnessError(
      'NO_RECORD',
      `--failed re-runs the failures of the last run of ${stage} in ${dir}, but there is no record of one (${failedRecordPath(dir, stage)}): run \`npx theinference test --stage ${stage}\` first.`,
    );
  }
  const today = new Set((await caseFileNames(packageRoot(), stage)).map((f) => f.slice(0, -'.json'.length)));
  return names.filter((n) => today.has(n));
}
