// `theinference test --watch`: grade, then re-grade on every save until `q`. This file only wires the pieces:
// the state machine (watch-loop.ts) decides, and this carries out its effects with the grader, chokidar,
// stdin and stdout.
import { existsSync } from 'node:fs';
import { renderPretty } from '../../grade/report/pretty.ts';
import type { RunOptions } from '../../grade/run-options.ts';
import type { RunReport } from '../../grade/types.ts';
import type { Outcome } from '../commands/io.ts';
import { packageRoot } from '../../course/stages.ts';
import { nextStep } from '../next-step.ts';
import { eventQueue } from '../event-queue.ts';
import { debounce } from './debounce.ts';
import { watchFiles, type FileWatcher } from './file-watcher.ts';
import { readKeys, type KeyInput, type KeyInputEvent } from './key-input.ts';
import { actionForKey, actionsForLine } from './keys.ts';
import { renderComparison, renderMenu, renderMessage, renderProgress, renderPrompt } from './screen.ts';
import { initialState, step, type Effect } from './watch-loop.ts';
import { startRun, type Loop, type Runs } from './watch-run.ts';
import { openSession, type Session, type WatchIo } from './watch-session.ts';
import { runTypeCheck } from '../../grade/type-check/run-type-check.ts';
import { renderTypeCheckNote } from '../../grade/report/type-check-note.ts';

export type { WatchIo } from './watch-session.ts';

// Editors save in bursts of events a few milliseconds apart (a temp file written and renamed over the original,
// a chmod); 50 ms of quiet ends the burst. Every millisecond of it is on the way to each verdict, and a burst
// that outlasts it costs one cancelled run, never a wrong verdict: the next burst re-runs with every path.
const DEBOUNCE = { waitMs: 50, maxWaitMs: 1000 };

// Grades once, then again whenever the course's code or the stage's cases change, until `q` or Ctrl-C; resolves
// to the last verdict's outcome on `q` ('pass', 'fail', or 'misuse' when the last run was a harness error), and
// to 'interrupted' on Ctrl-C, SIGTERM or SIGHUP. Four steps: open the session, start the machine, listen, close.
export async function runWatch(options: RunOptions, io: WatchIo): Promise<Outcome> {
  const session = await openSession(options, io);
  let finish: (ended: Ended) => void = () => {};
  const ended = new Promise<Ended>((resolve) => (finish = resolve));
  const runs: Runs & { typeCheck?: AbortController } = {};
  // Events can arrive while effects are being carried out (a key during a write): the queue makes each step see
  // the state the previous one left.
  const loop: Loop = eventQueue(initialState(options.cases), step, (effect: Effect) =>
    perform(effect, { session, loop, runs, finish }),
  );
  let listening: Listening | undefined;
  try {
    listening = await listen(session, loop);
    await session.standbys.fill();
    options.signal?.addEventListener('abort', listening.onAbort, { once: true });
    if (options.signal?.aborted === true) listening.onAbort();
    else loop.dispatch({ type: 'start' });

    const result = await ended;
    if ('error' in result) throw result.error;
    if (session.screen.tty) session.write('\n');
    return result.outcome;
  } finally {
    if (listening !== undefined) options.signal?.removeEventListener('abort', listening.onAbort);
    runs.typeCheck?.abort();
    await listening?.close();
    await session.standbys.close();
  }
}

type Ended = { outcome: Outcome } | { error: unknown };
// Carries out one effect of the machine: a run started or cancelled, something written, the session ended.
function perform(
  effect: Effect,
  at: { session: Session; loop: Loop; runs: Runs & { typeCheck?: AbortController }; finish: (ended: Ended) => void },
) {
  const { session, loop, runs, finish } = at;
  switch (effect.type) {
    case 'start-run':
      runs.typeCheck?.abort();
      runs.current = startRun(session, effect.request, loop);
      return;
    case 'type-check':
      runs.typeCheck?.abort();
      runs.typeCheck = startTypeCheck(session, loop);
      return;
    case 'cancel-run':
      return runs.current?.controller.abort();
    case 'exit':
      return finish({ outcome: effect.outcome });
    case 'fail':
      return finish({ error: runs.current?.error ?? new Error(effect.message) });
    default:
      return session.write(screenFor(effect, session));
  }
}

// What an effect that shows something puts on the screen.
function screenFor(
  effect: Exclude<Effect, { type: 'start-run' | 'cancel-run' | 'type-check' | 'exit' | 'fail' }>,
  session: Session,
) {
  const { screen } = session;
  switch (effect.type) {
    case 'show-report':
      return (
        renderProgress(undefined, screen) +
        `${renderPretty(withWarnings(effect.report, session.warnings), { color: session.io.color })}${nextLines(effect.report)}\n${renderComparison(effect.comparison)}`
      );
    case 'show-error':
      return renderMessage('error', effect.message, screen);
    case 'show-notice':
      return renderMessage('notice', effect.message, screen);
    case 'show-menu':
      return renderMenu(effect.filter, screen, effect.afterFailed === true);
    case 'show-prompt':
      return renderPrompt(effect.draft, screen);
    case 'show-type-check':
      return effect.note;
  }
}

// The course's type check, unless it is off; what it has to say reaches the machine as an event. Stopped by the
// returned controller (the next run, quitting).
function startTypeCheck(session: Session, loop: Loop): AbortController {
  const controller = new AbortController();
  const setting = session.io.typeCheck ?? 'note';
  if (setting === 'off') return controller;
  void runTypeCheck(session.options.dir, { signal: controller.signal }).then(
    (check) => {
      if (controller.signal.aborted) return;
      const note = renderTypeCheckNote(check, setting, { color: session.io.color });
      if (note !== '') loop.dispatch({ type: 'type-checked', note });
    },
    () => {},
  );
  return controller;
}

// What the session listens to: saved files (debounced into one event per burst), keys, and the CLI's abort.
type Listening = { onAbort: () => void; close: () => Promise<void> };

async function listen(session: Session, loop: Loop): Promise<Listening> {
  const { targets, standbys, screen, write } = session;
  const burst = debounce<string>(DEBOUNCE, (paths) => {
    const shown = paths.map(targets.display);
    // Standbys registered tsx with the settings of the time: a changed tsconfig.json (or package.json) needs new ones.
    if (shown.some((p) => p === 'tsconfig.json' || p === 'package.json')) void standbys.renew();
    loop.dispatch({ type: 'files-changed', paths: shown });
  });
  const onKeyInput = (event: KeyInputEvent): void => {
    const draft = loop.state().draft;
    const actions = event.kind === 'key' ? [actionForKey(event.key, draft)] : actionsForLine(event.line, draft);
    for (const action of actions) loop.dispatch({ type: 'key', action });
  };
  let watcher: FileWatcher | undefined;
  let keys: KeyInput | undefined;
  const close = async (): Promise<void> => {
    burst.cancel();
    keys?.close();
    await watcher?.close();
  };
  try {
    watcher = await watchFiles({
      roots: targets.roots.filter((root) => existsSync(root)),
      isIgnored: targets.isIgnored,
      onChange: (path) => burst.push(path),
      onError: (error) => write(renderMessage('error', `watching files failed: ${error.message}`, screen)),
    });
    keys = readKeys(session.io.stdin, onKeyInput);
  } catch (error) {
    await close();
    throw error;
  }
  // The CLI aborts options.signal on SIGINT/SIGTERM/SIGHUP (piped stdin never sees Ctrl-C as a key): quit as
  // Ctrl-C pressed on a terminal does, exiting 130.
  return { onAbort: () => loop.dispatch({ type: 'key', action: { type: 'interrupt' } }), close };
}

// After a green run of the whole stage: what comes next (src/cli/next-step.ts).
function nextLines(report: RunReport): string {
  const lines = nextStep(report, packageRoot());
  return lines.length === 0 ? '' : `\n${lines.join('\n')}\n`;
}

// The report with the session's warnings after the run's own.
function withWarnings(report: RunReport, warnings: string[]): RunReport {
  return warnings.length === 0 ? report : { ...report, warnings: [...(report.warnings ?? []), ...warnings] };
}
