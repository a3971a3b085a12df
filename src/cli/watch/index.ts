// `theinference test --watch`: grade, then re-grade on every save until `q`. This file only wires the pieces:
// the state machine (watch-loop.ts) decides, and this carries out its effects with the grader, chokidar,
// stdin and stdout.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { HarnessError, type HarnessErrorCode } from '../../errors.ts';
import { packageRoot, stageOf } from '../../course/stages.ts';
import { defaultWatchJobs } from '../../grade/run/default-jobs.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import { SAMPLED_SUSPECTS } from '../../grade/judge/recheck-alone.ts';
import { recordFailures } from '../../grade/failed-record.ts';
import { readTimings } from '../../grade/case-timings.ts';
import { runCourse, stageReports } from '../../grade/run-course.ts';
import { standbyPool } from '../../grade/run/standby-pool.ts';
import { renderPretty } from '../../grade/report/pretty.ts';
import type { RunOptions } from '../../grade/run-options.ts';
import type { CaseResult, RunReport } from '../../grade/types.ts';
import { debounce } from './debounce.ts';
import { watchFiles, type FileWatcher } from './file-watcher.ts';
import { readKeys, type KeyInput, type KeyInputEvent } from './key-input.ts';
import { actionForKey, actionsForLine } from './keys.ts';
import {
  renderComparison,
  renderHeader,
  renderMenu,
  renderMessage,
  renderProgress,
  renderPrompt,
  type ScreenOptions,
} from './screen.ts';
import { initialState, step, type Effect, type RunRequest } from './watch-loop.ts';
import { watchTargets } from './watch-paths.ts';
import type { Outcome } from '../commands/io.ts';
import { eventQueue } from '../event-queue.ts';

// What watch mode reads keys from and writes to; `color` is decided by the CLI (a TTY, NO_COLOR unset). `warnings`
// hold for the whole session (no sandbox here): each run clears the screen, so every report repeats them.
export type WatchIo = {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  color: boolean;
  warnings?: string[];
};

// Editors save in bursts of events a few milliseconds apart (a temp file written and renamed over the original,
// a chmod); 50 ms of quiet ends the burst. Every millisecond of it is on the way to each verdict, and a burst
// that outlasts it costs one cancelled run, never a wrong verdict: the next burst re-runs with every path.
const DEBOUNCE = { waitMs: 50, maxWaitMs: 1000 };

// Misuse that no save can fix: watch mode stops and the CLI reports it (exit 2), as without --watch.
const FATAL: ReadonlySet<HarnessErrorCode> = new Set<HarnessErrorCode>(['UNKNOWN_STAGE', 'NO_COURSE_DIR', 'BAD_FLAG']);

// Grades once, then again whenever the course's code or the stage's cases change, until `q` or Ctrl-C; resolves
// to the last verdict's outcome on `q` ('pass', 'fail', or 'misuse' when the last run was a harness error), and
// to 'interrupted' on Ctrl-C, SIGTERM or SIGHUP.
export async function runWatch(options: RunOptions, io: WatchIo): Promise<Outcome> {
  const screen: ScreenOptions = { tty: (io.stdout as { isTTY?: boolean }).isTTY === true, color: io.color };
  const write = (text: string): void => void io.stdout.write(text);
  const targets = watchTargets({
    dir: options.dir,
    packageRoot: packageRoot(),
    stage: options.stage,
    // os.tmpdir() honours TMPDIR: where the grader makes its run directories and the sandboxes live.
    tempDirs: [tmpdir()],
  });

  // Warm program processes (Node and tsx loaded, nothing of the course), one per batch of the next run plus one
  // for the isolation re-check a failing run starts: started before the first run and again after each, so a
  // save pays only for compiling what changed and the cases, passing or failing. As many batches as there are
  // cores (up to 4), unlike a cold run's default: with start-up paid ahead of time, splitting the cases over both
  // cores pays (docs/performance.md).
  const jobs = options.jobs ?? defaultWatchJobs();
  const env = options.env ?? process.env;
  const warnings = [...(io.warnings ?? [])];
  let sandbox = options.sandbox;
  if (sandbox === undefined) {
    const choice = await chooseSandbox(undefined, env);
    sandbox = choice.sandbox;
    if (choice.warning !== undefined) warnings.push(choice.warning);
  }
  const stage = stageOf(options.stage);
  const mode = stage?.mode ?? 'dispatch';
  const size = jobs + SAMPLED_SUSPECTS;
  const standbys = standbyPool({ dir: options.dir, env, size, sandbox, mode, warm: stage?.warm ?? [] });
  const refill = (): void => void standbys.fill();
  // How long each case took when it last ran in a batch: each run balances its batches with it and updates it
  // (the first run, with the last one-off run's times, src/grade/case-timings.ts).
  const timings = readTimings(options.dir, options.stage);

  let run: { controller: AbortController; error?: unknown } | undefined;
  let watcher: FileWatcher | undefined;
  let keys: KeyInput | undefined;
  let finish: (ended: { outcome: Outcome } | { error: unknown }) => void = () => {};
  const ended = new Promise<{ outcome: Outcome } | { error: unknown }>((resolve) => (finish = resolve));

  // Events can arrive while effects are being carried out (a key during a write): the queue makes each step see
  // the state the previous one left.
  const loop = eventQueue(initialState(options.cases), step, (effect: Effect) => perform(effect));
  const dispatch = loop.dispatch;
  const state = loop.state;

  const startRun = (request: RunRequest): void => {
    const current: { controller: AbortController; error?: unknown } = { controller: new AbortController() };
    run = current;
    // `f` runs the last failures whatever the filter: naming the filter there would mislead.
    const filter = request.reason.kind === 'run-failed' ? undefined : state().filter?.label;
    write(renderHeader(request.reason, { now: new Date(), stage: options.stage, filter }, screen));
    const { signal } = current.controller;
    // A verdict is one tick of the counter on a terminal: failures are told in full, once per mistake, in the
    // report (the probe's findings come with the end of the run), and the header naming the trigger stays on screen.
    let done = 0;
    let failed = 0;
    const onCaseResult = (result: CaseResult): void => {
      if (signal.aborted) return;
      done += 1;
      if (result.status === 'fail') failed += 1;
      write(renderProgress({ done, failed }, screen));
    };
    runCourse({ ...options, sandbox, jobs, cases: request.cases, signal, onCaseResult, standbys, timings }).then(
      (report) => {
        refill();
        if (!signal.aborted) for (const r of stageReports(report)) void recordFailures(r);
        dispatch(signal.aborted ? { type: 'run-cancelled' } : { type: 'run-finished', report });
      },
      (error: unknown) => {
        refill();
        current.error = error;
        if (signal.aborted) return dispatch({ type: 'run-cancelled' });
        const fatal = error instanceof HarnessError && FATAL.has(error.code);
        dispatch({ type: 'run-errored', message: describeError(error, state().filter?.label), fatal });
      },
    );
  };

  const perform = (effect: Effect): void => {
    switch (effect.type) {
      case 'start-run':
        return startRun(effect.request);
      case 'cancel-run':
        return run?.controller.abort();
      case 'show-report':
        return write(
          renderProgress(undefined, screen) +
            `${renderPretty(withWarnings(effect.report, warnings), { color: io.color })}\n${renderComparison(effect.comparison)}`,
        );
      case 'show-error':
        return write(renderMessage('error', effect.message, screen));
      case 'show-notice':
        return write(renderMessage('notice', effect.message, screen));
      case 'show-menu':
        return write(renderMenu(effect.filter, screen, effect.afterFailed === true));
      case 'show-prompt':
        return write(renderPrompt(effect.draft, screen));
      case 'exit':
        return finish({ outcome: effect.outcome });
      case 'fail':
        return finish({ error: run?.error ?? new Error(effect.message) });
    }
  };

  const burst = debounce<string>(DEBOUNCE, (paths) => {
    const shown = paths.map(targets.display);
    // Standbys registered tsx with the settings of the time: a changed tsconfig.json (or package.json) needs new ones.
    if (shown.some((p) => p === 'tsconfig.json' || p === 'package.json')) void standbys.renew();
    dispatch({ type: 'files-changed', paths: shown });
  });
  const onKeyInput = (event: KeyInputEvent): void => {
    const actions =
      event.kind === 'key' ? [actionForKey(event.key, state().draft)] : actionsForLine(event.line, state().draft);
    for (const action of actions) dispatch({ type: 'key', action });
  };
  // The CLI aborts options.signal on SIGINT/SIGTERM/SIGHUP (piped stdin never sees Ctrl-C as a key): quit as
  // Ctrl-C pressed on a terminal does, exiting 130.
  const onAbort = (): void => dispatch({ type: 'key', action: { type: 'interrupt' } });

  try {
    watcher = await watchFiles({
      roots: targets.roots.filter((root) => existsSync(root)),
      isIgnored: targets.isIgnored,
      onChange: (path) => burst.push(path),
      onError: (error) => write(renderMessage('error', `watching files failed: ${error.message}`, screen)),
    });
    keys = readKeys(io.stdin, onKeyInput);
    await standbys.fill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted === true) onAbort();
    else dispatch({ type: 'start' });

    const result = await ended;
    if ('error' in result) throw result.error;
    if (screen.tty) write('\n');
    return result.outcome;
  } finally {
    burst.cancel();
    keys?.close();
    options.signal?.removeEventListener('abort', onAbort);
    await watcher?.close();
    await standbys.close();
  }
}

// The report with the session's warnings after the run's own.
function withWarnings(report: RunReport, warnings: string[]): RunReport {
  return warnings.length === 0 ? report : { ...report, warnings: [...(report.warnings ?? []), ...warnings] };
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
