// One run of watch mode: grade the cases a request names, count verdicts on the screen as they come, and tell the
// machine (watch-loop.ts) how the run ended.
import { HarnessError, type HarnessErrorCode } from '../../errors.ts';
import { packageRoot } from '../../course/stages.ts';
import { casesReaching } from '../../grade/cases-reaching.ts';
import { readFailures, recordFailures } from '../../grade/failed-record.ts';
import { firstFailureTeller, renderFirstFailure } from '../../grade/report/first-failure.ts';
import { runCourse, stageReports } from '../../grade/run-course.ts';
import type { CaseResult } from '../../grade/types.ts';
import type { EventQueue } from '../event-queue.ts';
import { renderHeader, renderProgress } from './screen.ts';
import type { RunRequest, WatchEvent, WatchState } from './watch-loop.ts';
import type { Session } from './watch-session.ts';

// Misuse that no save can fix: watch mode stops and the CLI reports it (exit 2), as without --watch.
const FATAL: ReadonlySet<HarnessErrorCode> = new Set<HarnessErrorCode>(['UNKNOWN_STAGE', 'NO_COURSE_DIR', 'BAD_FLAG']);

export type Loop = EventQueue<WatchState, WatchEvent>;
// The run under way, if any: its abort controller, and the error it failed with (for a fatal one).
export type Runs = { current?: { controller: AbortController; error?: unknown } };

// Grades the cases a request names, counting verdicts on the screen as they come, and tells the machine how the
// run ended: finished with its report, cancelled, or failed (fatally for misuse no save can fix).
export function startRun(session: Session, request: RunRequest, loop: Loop): NonNullable<Runs['current']> {
  const { options, screen, write, standbys, timings } = session;
  const current: NonNullable<Runs['current']> = { controller: new AbortController() };
  // `f` runs the last failures whatever the filter: naming the filter there would mislead.
  const filter = request.reason.kind === 'run-failed' ? undefined : loop.state().filter?.label;
  write(renderHeader(request.reason, { now: new Date(), stage: options.stage, filter }, screen));
  const { signal } = current.controller;
  // A verdict is one tick of the counter on a terminal, and the first failure is told as soon as it is judged,
  // above it: the student reads what broke while the rest run. Every failure is told in full, once per mistake, in
  // the report (the probe's findings come with the end of the run), and the header naming the trigger stays on
  // screen.
  let done = 0;
  let failed = 0;
  const tellFirst = firstFailureTeller((result) => {
    if (screen.tty) write(renderFirstFailure(result, screen));
  });
  const onCaseResult = (result: CaseResult): void => {
    if (signal.aborted) return;
    done += 1;
    if (result.status === 'fail') failed += 1;
    tellFirst(result);
    write(renderProgress({ done, failed }, screen));
  };
  const onFailureSeen = (result: CaseResult): void => {
    if (!signal.aborted && tellFirst(result)) write(renderProgress({ done, failed }, screen));
  };
  const refill = (): void => void standbys.fill();
  // The cases that failed last time run first, so a failure still there shows at once; then those the save most
  // likely broke (a case file edited, or naming what the changed lines name).
  const paths = request.reason.kind === 'files' ? request.reason.paths : [];
  // Only an order: a file that cannot be read leaves it as it was.
  const changes = session.sources.changes(paths).catch(() => []);
  const grade = async () => {
    const [lastFailures, reaching] = await Promise.all([
      readFailures(options.dir, options.stage),
      changes.then((save) => casesReaching(packageRoot(), options.stage, { paths, changes: save }, session.caseWords)),
    ]);
    const runFirst = [...new Set([...(lastFailures ?? []), ...reaching])];
    return runCourse({
      ...options,
      cases: request.cases,
      signal,
      onCaseResult,
      onFailureSeen,
      standbys,
      timings,
      runFirst,
    });
  };
  grade().then(
    async (report) => {
      refill();
      // What this verdict graded is what the next save is compared with.
      if (!signal.aborted) session.sources.keep(await changes);
      if (!signal.aborted) for (const r of stageReports(report)) void recordFailures(r);
      loop.dispatch(signal.aborted ? { type: 'run-cancelled' } : { type: 'run-finished', report });
    },
    (error: unknown) => {
      refill();
      current.error = error;
      if (signal.aborted) return loop.dispatch({ type: 'run-cancelled' });
      const fatal = error instanceof HarnessError && FATAL.has(error.code);
      loop.dispatch({ type: 'run-errored', message: describeError(error, loop.state().filter?.label), fatal });
    },
  );
  return current;
}

// One line for the student: a harness error's own message (it says how to fix it), a filter that matches
// nothing in the terms of the filter, anything else as the bug it is.
function describeError(error: unknown, filter: string | undefined): string {
  if (error instanceof HarnessError) {
    if (error.code === 'NO_CASES' && filter !== undefined) {
      const shown = JSON.stringify(filter);
      return `no case name matches the filter ${shown}: press p to change it (an empty filter clears it).`;
    }
    return error.message;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `the grader failed unexpectedly (a bug in theinference; please report it): ${detail}`;
}
