// A watch session's fixed parts, decided once when it opens: the run's options with the session's own choices made
// (the sandbox, the number of batches), the screen, what to watch, the warm processes and the cases' timings.
import { tmpdir } from 'node:os';
import { packageRoot, stageOf } from '../../course/stages.ts';
import { readTimings } from '../../grade/case-timings.ts';
import { keepCaseWords, type CaseWords } from '../../grade/cases-reaching.ts';
import { SAMPLED_SUSPECTS } from '../../grade/judge/recheck-alone.ts';
import type { RunOptions } from '../../grade/run-options.ts';
import { defaultWatchJobs } from '../../grade/run/default-jobs.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import { standbyPool, type StandbyPool } from '../../grade/run/standby-pool.ts';
import type { ScreenOptions } from './screen.ts';
import { keepSourceTexts, type SourceTexts } from './source-texts.ts';
import { watchTargets } from './watch-paths.ts';
import type { TypeCheckSetting } from '../../grade/types.ts';

// What watch mode reads keys from and writes to; `color` is decided by the CLI (a TTY, NO_COLOR unset). `warnings`
// hold for the whole session (no sandbox here): each run clears the screen, so every report repeats them.
export type WatchIo = {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  color: boolean;
  warnings?: string[];
  // What the course's type check counts for (src/grade/type-check/type-check-setting.ts); `note` when not given.
  typeCheck?: TypeCheckSetting;
};

export type Session = {
  options: RunOptions & { sandbox: NonNullable<RunOptions['sandbox']>; jobs: number };
  io: WatchIo;
  screen: ScreenOptions;
  write: (text: string) => void;
  targets: ReturnType<typeof watchTargets>;
  warnings: string[];
  standbys: StandbyPool;
  timings: ReturnType<typeof readTimings>;
  // The student's code as the last verdict graded it, and the words of each case: a save's changes order the next
  // run (src/grade/cases-reaching.ts).
  sources: SourceTexts;
  caseWords: CaseWords;
};
export async function openSession(options: RunOptions, io: WatchIo): Promise<Session> {
  const env = options.env ?? process.env;
  const warnings = [...(io.warnings ?? [])];
  let sandbox = options.sandbox;
  if (sandbox === undefined) {
    const choice = await chooseSandbox(undefined, env);
    sandbox = choice.sandbox;
    if (choice.warning !== undefined) warnings.push(choice.warning);
  }
  // Warm program processes (Node and tsx loaded, nothing of the course), one per batch of the next run plus one
  // for the isolation re-check a failing run starts: started before the first run and again after each, so a
  // save pays only for compiling what changed and the cases, passing or failing. As many batches as there are
  // cores (up to 4), unlike a cold run's default: with start-up paid ahead of time, splitting the cases over both
  // cores pays (docs/performance.md).
  const jobs = options.jobs ?? defaultWatchJobs();
  const stage = stageOf(options.stage);
  const standbys = standbyPool({
    dir: options.dir,
    env,
    size: jobs + SAMPLED_SUSPECTS,
    sandbox,
    stage: options.stage,
    warm: stage?.warm ?? [],
  });
  const targets = watchTargets({
    dir: options.dir,
    packageRoot: packageRoot(),
    stage: options.stage,
    // os.tmpdir() honours TMPDIR: where the grader makes its run directories and the sandboxes live.
    tempDirs: [tmpdir()],
  });
  return {
    options: { ...options, sandbox, jobs },
    io,
    screen: { tty: (io.stdout as { isTTY?: boolean }).isTTY === true, color: io.color },
    write: (text) => void io.stdout.write(text),
    targets,
    warnings,
    standbys,
    // How long each case took when it last ran in a batch: each run balances its batches with it and updates it
    // (the first run, with the last one-off run's times, src/grade/case-timings.ts).
    timings: readTimings(options.dir, options.stage),
    sources: await keepSourceTexts(options.dir, targets.isIgnored),
    caseWords: keepCaseWords(packageRoot(), options.stage),
  };
}
