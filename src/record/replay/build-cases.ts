// From steps to replay-verified cases. Each agent's calls (the main session, each subagent) form a timeline of
// their own; a timeline is cut into cases of at most `maxCalls` calls. A case is replayed through the reference
// from a seed built from the recording's evidence, and each call is kept only when its result reproduces the
// recorded one (src/record/replay/verify-result.ts). A call that does not reproduce is dropped with the reason, unless
// it shows the file it touched as it was (a Read, an Edit's or Write's original, a listing): then the world
// changed outside the calls (a formatter, the user, a command that was dropped), the case ends before it and the
// next case starts from a seed built from that evidence. A dropped call that changed nothing in the replay (a
// view, a listing, a write-type call that failed) leaves the results after it as they were; any other drop
// (a command, a write that succeeded) means replaying again without it.
import { isDeepStrictEqual } from 'node:util';
import type { BashMode, CaseDraft, MappedCall } from '../record-types.ts';
import type { ReplayPool, ReplayRun } from './replay-pool.ts';
import { changes, deriveSeed, touchedPaths, type FilesFrom, type Seed } from '../seed/seed-files.ts';
import type { Step } from '../map/prepare-steps.ts';
import { verifyResult, type Replayed, type Verdict } from './verify-result.ts';

// A command that takes longer than this in a replay is not kept: a student's run of the case has 10 s in all
// (docs/cases.md: sleeps of at most 2 s).
export const SLOW_CALL_MS = 2_000;

// How cases are built.
export type BuildOptions = {
  maxCalls: number;
  bash: BashMode;
  pool: ReplayPool;
  filesFrom?: FilesFrom;
  signal?: AbortSignal;
};

// The cases, and per step (by position) why it is in none and, for replayed calls that did not reproduce,
// the verdict that said so.
export type Built = {
  drafts: CaseDraft[];
  dropped: Map<number, string>;
  divergences: Map<number, Verdict>;
  replayed: Set<number>;
};

// Builds the cases of one transcript's steps.
export async function buildCases(steps: Step[], options: BuildOptions): Promise<Built> {
  const built: Built = { drafts: [], dropped: new Map(), divergences: new Map(), replayed: new Set() };
  for (const step of steps) {
    if (step.drop !== undefined) built.dropped.set(step.position, step.drop);
    else if (options.bash === 'drop' && step.mapped?.check.kind === 'bash')
      built.dropped.set(step.position, 'Bash, with --bash drop');
  }
  const agents = [...new Set(steps.map((s) => s.imported.agent))];
  const timelines = agents.map((agent) => steps.filter((s) => s.imported.agent === agent));
  const drafts = await Promise.all(timelines.map((timeline) => buildTimeline(timeline, built, options)));
  built.drafts = drafts.flat();
  return built;
}

async function buildTimeline(timeline: Step[], built: Built, options: BuildOptions): Promise<CaseDraft[]> {
  const drafts: CaseDraft[] = [];
  const open = (i: number): boolean =>
    timeline[i]?.mapped !== undefined && !built.dropped.has(timeline[i]?.position ?? -1);
  const changedEarlier = (before: number) => (path: string) =>
    timeline.slice(0, before).some((s) => s.ran && changes(s.evidence, path));
  let next = 0;
  while (next < timeline.length) {
    options.signal?.throwIfAborted();
    const window: number[] = [];
    let end = next;
    for (; end < timeline.length && window.length < options.maxCalls; end++) if (open(end)) window.push(end);
    if (window.length === 0) break;
    const filesFrom =
      options.filesFrom === undefined
        ? undefined
        : { read: options.filesFrom, changedEarlier: changedEarlier(window[0] ?? 0) };
    const seed = await seedFor(timeline, window, filesFrom);
    if (seed.tooLarge.length > 0) {
      const touching = window.filter((i) => touches(timeline, i, seed.tooLarge));
      for (const i of touching.length > 0 ? touching : window)
        built.dropped.set(timeline[i]?.position ?? -1, 'a file too large to seed');
      continue;
    }
    const calls = window.map((i) => (timeline[i]!.mapped as MappedCall).call);
    const runs = await replayRuns(options, seed, calls, (run) =>
      window.some((i, k) => reproducingShell(timeline[i], run, k)),
    );
    if (typeof runs === 'string') {
      for (const i of window) built.dropped.set(timeline[i]?.position ?? -1, `replay failed: ${runs}`);
      next = end;
      continue;
    }
    const outcome = await judgeWindow(timeline, window, runs, built, (at) =>
      reproducesAlone(timeline, at, options, filesFrom),
    );
    if (outcome.kind === 'again') continue;
    const kept = outcome.kept;
    if (kept.length > 0) {
      const draft = await confirm(timeline, kept, seed, options, filesFrom);
      if (draft === undefined)
        for (const i of kept) built.dropped.set(timeline[i]?.position ?? -1, 'did not reproduce as a whole case');
      else drafts.push(draft);
    }
    next = outcome.kind === 'split' ? outcome.at : end;
  }
  return drafts;
}

// Judges a replayed window: every call up to the first that needs the window replayed again or that ends the case.
// `worldChanged(i)`: whether call i, which differs, reproduces from what the recording shows around it (then the
// world changed before it; else the course's tools differ from the agent's there).
async function judgeWindow(
  timeline: Step[],
  window: number[],
  runs: ReplayRun[],
  built: Built,
  worldChanged: (i: number) => Promise<boolean>,
): Promise<{ kind: 'again' } | { kind: 'split'; at: number; kept: number[] } | { kind: 'done'; kept: number[] }> {
  const kept: number[] = [];
  for (const [k, i] of window.entries()) {
    const step = timeline[i] as Step;
    const mapped = step.mapped as MappedCall;
    const first = runs[0]?.results[k] ?? {};
    built.replayed.add(step.position);
    let verdict = verifyResult(mapped, step.imported.result, first, runs[0]?.after[k]);
    if (verdict.ok && runs.length > 1 && !isDeepStrictEqual(first, runs[1]?.results[k])) {
      verdict = {
        ok: false,
        reason: 'Bash: two replays differ',
        recorded: JSON.stringify(first),
        replayed: JSON.stringify(runs[1]?.results[k]),
      };
    }
    const slow = verdict.ok && Math.max(0, ...runs.map((run) => run.bashMs[k] ?? 0)) > SLOW_CALL_MS;
    if (verdict.ok && !slow) {
      built.divergences.delete(step.position);
      kept.push(i);
      continue;
    }
    // A command that reproduces but is too slow is no divergence: the course's bash gave what the agent's did.
    if (slow) built.dropped.set(step.position, `Bash too slow for a case (over ${SLOW_CALL_MS / 1000} s in a replay)`);
    else if (!verdict.ok) {
      if (kept.length > 0 && showsItsFile(step) && (await worldChanged(i))) return { kind: 'split', at: i, kept };
      built.dropped.set(step.position, `did not reproduce: ${verdict.reason}`);
      built.divergences.set(step.position, verdict);
    }
    if (
      !changedNothing(
        mapped,
        first,
        runs.every((run) => run.unchanged.includes(k)),
      )
    )
      return { kind: 'again' };
  }
  return { kind: 'done', kept };
}

// Whether a call reproduces in a sandbox seeded from what the recording shows around it: then its difference in
// the case so far means the world changed outside the calls.
async function reproducesAlone(
  timeline: Step[],
  at: number,
  options: BuildOptions,
  filesFrom: Parameters<typeof deriveSeed>[3],
): Promise<boolean> {
  const step = timeline[at] as Step;
  const seed = await seedFor(timeline, [at], filesFrom);
  const run = await options.pool
    .replay({ files: seed.files, calls: [(step.mapped as MappedCall).call] })
    .catch(() => undefined);
  return (
    run !== undefined &&
    verifyResult(step.mapped as MappedCall, step.imported.result, run.results[0] ?? {}, run.after[0]).ok
  );
}

// Whether the recording shows what the call's file (or listing) was, so that a difference may mean the world
// changed.
function showsItsFile(step: Step): boolean {
  const kind = step.mapped?.check.kind;
  if (kind === 'glob' || kind === 'grep') return step.evidence.before.size > 0;
  return step.path !== undefined && step.evidence.before.has(step.path);
}

// A call whose replay left the sandbox as it was: dropping it changes no later result. `quietShell`: the worker
// saw the sandbox's tree unchanged around this Bash call in every replay.
function changedNothing(mapped: MappedCall, replayed: Replayed, quietShell: boolean): boolean {
  const kind = mapped.check.kind;
  if (kind === 'view' || kind === 'glob' || kind === 'grep') return true;
  if (kind === 'bash') return quietShell;
  return replayed.is_error === true;
}

// The seed for the calls of `window`. A command names files the recording knows of from any call up to the
// window's end: a file an earlier case's Write made is one a later case's `chmod +x` needs.
async function seedFor(
  timeline: Step[],
  window: number[],
  filesFrom?: Parameters<typeof deriveSeed>[3],
): Promise<Seed> {
  const from = window[0] ?? 0;
  const to = window.at(-1) ?? from;
  const known = new Set<string>();
  for (let i = 0; i <= to; i++) {
    const evidence = timeline[i]?.evidence;
    for (const path of evidence?.before.keys() ?? []) known.add(path);
    for (const path of evidence?.changes ?? []) known.add(path);
  }
  const paths = window.flatMap((i) =>
    touchedPaths(timeline[i]?.evidence ?? { before: new Map(), changes: [] }, timeline[i]?.path, known),
  );
  return deriveSeed(timeline, { from, to }, paths, filesFrom);
}

function touches(timeline: Step[], i: number, paths: string[]): boolean {
  const step = timeline[i];
  if (step === undefined) return false;
  return paths.some(
    (p) => step.path === p || step.evidence.before.has(p) || (step.evidence.bashPaths ?? []).length > 0,
  );
}

// One replay, and a second when a Bash call reproduced in the first and must prove it does so again (most
// recorded commands fail in a sandbox, and for them one replay says enough); a string says why a replay failed.
async function replayRuns(
  options: BuildOptions,
  seed: Seed,
  calls: MappedCall['call'][],
  shellReproduced: (run: ReplayRun) => boolean,
): Promise<ReplayRun[] | string> {
  try {
    const first = await options.pool.replay({ files: seed.files, calls });
    if (options.bash !== 'reproducible' || !shellReproduced(first)) return [first];
    return [first, await options.pool.replay({ files: seed.files, calls })];
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// Whether the step is a Bash call whose result in `run` (at `k`) reproduces the recording.
function reproducingShell(step: Step | undefined, run: ReplayRun, k: number): boolean {
  const mapped = step?.mapped;
  return (
    mapped?.check.kind === 'bash' && verifyResult(mapped, step?.imported.result, run.results[k] ?? {}, run.after[k]).ok
  );
}

// The case for the kept calls, replayed once more as it will be written: with the seed its own calls need when
// that reproduces every kept result, else with the window's seed (which did).
async function confirm(
  timeline: Step[],
  kept: number[],
  windowSeed: Seed,
  options: BuildOptions,
  filesFrom: Parameters<typeof deriveSeed>[3],
): Promise<CaseDraft | undefined> {
  const calls = kept.map((i) => (timeline[i]!.mapped as MappedCall).call);
  const own = await seedFor(timeline, kept, filesFrom);
  for (const seed of isDeepStrictEqual(own.files, windowSeed.files) ? [windowSeed] : [own, windowSeed]) {
    const again = await options.pool.replay({ files: seed.files, calls }).catch(() => undefined);
    if (again === undefined) continue;
    const same = kept.every(
      (i, k) =>
        verifyResult(
          timeline[i]?.mapped as MappedCall,
          timeline[i]?.imported.result,
          again.results[k] ?? {},
          again.after[k],
        ).ok,
    );
    if (!same) continue;
    const agent = timeline[kept[0] ?? 0]?.imported.agent;
    return {
      files: seed.files,
      origins: seed.origins,
      calls: kept.map((i) => timeline[i]?.mapped as MappedCall),
      results: again.results,
      ...(agent === undefined ? {} : { agent }),
    };
  }
  return undefined;
}
