// Grades a class: many course directories (submissions) against one stage in one run. The stage is planned once
// (cases selected, validated, snapshots read, variants made and run through the reference), then `jobs`
// submissions are graded at a time, each in its own program processes confined to its own directory, so that the
// batches of different submissions run side by side. A submission that cannot be graded (no program.ts, not an ES
// module package) is that submission's verdict, not the run's end. With --previous each submission is then graded
// on the earlier stages it has reached, each planned once for the class.
import { earlierStages, packageRoot, requireStage } from '../course/stages.ts';
import { notReachedWarning, reachedEarlierStages } from '../course/reached-stages.ts';
import { HarnessError } from '../errors.ts';
import { checkCourseDir } from '../course/check-course-dir.ts';
import { defaultClassJobs, defaultJobs } from './run/default-jobs.ts';
import { chooseSandbox } from './run/isolation/choose-sandbox.ts';
import { weighing } from './judge/judge-case.ts';
import { gradeCourse } from './run-stage.ts';
import { stageReports, stageTotals } from './run-course.ts';
import { planStage, type StagePlan } from './stage-plan.ts';
import type { RunOptions } from './run-options.ts';
import type { CaseResult, ClassReport, RunReport, Submission, SubmissionResult } from './types.ts';

// What a class run needs: the run options of one course directory, but the directories, and who hears each
// submission's outcome as it is known.
export type ClassOptions = Omit<RunOptions, 'dir' | 'onCaseResult' | 'onFailureSeen' | 'standbys' | 'timings'> & {
  submissions: Submission[];
  onSubmission?: (result: SubmissionResult) => void;
};

// Grades every submission; misuse of the grader itself (unknown stage, a bad case file, --case matching nothing)
// is a HarnessError before any submission is graded.
export async function runClass(options: ClassOptions): Promise<ClassReport> {
  const started = performance.now();
  const root = packageRoot();
  await requireStage(root, options.stage);
  const env = options.env ?? process.env;
  const choice = options.sandbox === undefined ? await chooseSandbox(undefined, env) : { sandbox: options.sandbox };
  const variants =
    options.variants === undefined ? {} : { variants: { ...options.variants, env, sandbox: choice.sandbox } };
  const plan = await planStage({ root, stage: options.stage, cases: options.cases ?? [], ...variants });
  // With --previous, every earlier stage is planned once too (all its cases), for the submissions that reached it.
  const earlier: StagePlan[] = [];
  const results: SubmissionResult[] = [];
  const removed: string[] = [];
  try {
    if (options.previous === true) {
      for (const stage of earlierStages(options.stage)) {
        earlier.push(await planStage({ root, stage: stage.slug, cases: [], ...variants }));
      }
    }
    // A bad case file is the course's, not a submission's: found once, before any submission runs.
    for (const p of [plan, ...earlier]) await p.judging();
    const queue = [...options.submissions];
    const workers = Math.max(1, Math.min(options.jobs ?? defaultClassJobs(), queue.length));
    // Fewer submissions than jobs: each gets a share of the processes, as one run of its own would.
    const share = Math.max(1, Math.floor((options.jobs ?? defaultJobs()) / workers));
    let broken = false;
    const work = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined && !broken; next = queue.shift()) {
        options.signal?.throwIfAborted();
        try {
          const result = await gradeSubmission([plan, ...earlier], next, {
            ...options,
            jobs: share,
            sandbox: choice.sandbox,
          });
          results.push(result);
          options.onSubmission?.(result);
        } catch (error) {
          broken = true;
          throw error;
        }
      }
    };
    // Every worker settles (its processes dead) before the run does, however one of them ended.
    const settled = await Promise.allSettled(Array.from({ length: workers }, work));
    const failure = settled.find((s) => s.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  } finally {
    for (const p of [plan, ...earlier]) removed.push(...(await p.close()));
  }
  const warnings = [...(choice.warning === undefined ? [] : [choice.warning]), ...removed];
  return {
    stage: options.stage,
    submissions: results.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    durationMs: Math.round(performance.now() - started),
    ...(plan.variants === undefined ? {} : { variants: { seed: plan.variants.seed } }),
    ...(warnings.length === 0 ? {} : { warnings }),
  };
}

// One submission graded on the shared plans: the stage's, then (--previous) each earlier stage's that the
// submission has reached, nearest first, as runCourse grades one course directory.
async function gradeSubmission(
  [plan, ...earlier]: [StagePlan, ...StagePlan[]],
  submission: Submission,
  options: Omit<RunOptions, 'dir'> & { sandbox: boolean },
): Promise<SubmissionResult> {
  try {
    await checkCourseDir(submission.dir);
    // The stage was validated before any submission ran: what is refused now is this submission (too large, say).
    const graded = await gradeCourse(plan, { ...options, dir: submission.dir });
    const left = earlier.length === 0 ? undefined : await notReachedWarning(submission.dir, options.stage);
    const report = left === undefined ? graded : { ...graded, warnings: [...(graded.warnings ?? []), left] };
    if (earlier.length === 0) return outcome(submission, report);
    const reached = new Set((await reachedEarlierStages(submission.dir, options.stage)).map((s) => s.slug));
    const previous: RunReport[] = [];
    for (const p of earlier.filter((e) => reached.has(e.stage))) {
      if (options.bail === true && [report, ...previous].some((r) => r.failed > 0)) break;
      previous.push(await gradeCourse(p, { ...options, stage: p.stage, dir: submission.dir }));
    }
    return outcome(submission, previous.length === 0 ? report : { ...report, previous });
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    const report = await unrunReport(plan, submission.dir, error.message);
    return { ...submission, verdict: 'misuse', passed: 0, failed: report.failed, message: error.message, report };
  }
}

// A graded submission's outcome, its counts over every stage graded: its program did not start when every case
// failed before running.
function outcome(submission: Submission, report: RunReport): SubmissionResult {
  const cases = stageReports(report).flatMap((r) => r.cases);
  const first = cases[0]?.failure;
  const didNotStart = cases.length > 0 && cases.every((c) => c.failure?.beforeAnyCase === true);
  const { passed, failed } = stageTotals(report);
  return {
    ...submission,
    verdict: didNotStart ? 'did not start' : failed > 0 ? 'fail' : 'pass',
    passed,
    failed,
    ...(didNotStart && first !== undefined ? { message: first.message } : {}),
    report,
  };
}

// One course directory's run as a class of one, for its summary.
export function oneRun(report: RunReport, submission: Submission): ClassReport {
  return {
    stage: report.stage,
    submissions: [outcome(submission, report)],
    durationMs: report.durationMs,
    ...(report.variants === undefined ? {} : { variants: { seed: report.variants.seed } }),
  };
}

// The report of a submission that could not be graded: every selected case failed, before running, with why.
async function unrunReport(plan: StagePlan, dir: string, why: string): Promise<RunReport> {
  const judging = await plan.judging();
  const cases = plan.selected.map((c): CaseResult => {
    const known = judging.cases.get(c.name);
    return {
      name: c.name,
      description: known?.data.description ?? '',
      status: 'fail',
      durationMs: 0,
      failure: { kind: 'crash', message: `the submission cannot be graded: ${why}`, beforeAnyCase: true },
      output: '',
      ...(known === undefined ? {} : weighing(known)),
    };
  });
  return { stage: plan.stage, dir, cases, passed: 0, failed: cases.length, durationMs: 0 };
}
