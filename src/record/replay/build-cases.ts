// From steps to replay-verified cases. Each agent's calls (the main session, each subagent) form a timeline of
// their own, and the timelines of every transcript are built side by side (the replay pool serves two at once). A
// timeline is cut into windows of at most `maxCalls` calls; a window is replayed call by call from a seed built from
// the recording's evidence and each call kept only when its result reproduces the recorded one
// (src/record/replay/judge-window.ts). A window can end early, where the world changed outside the calls; the next
// one starts there. The calls a window kept are replayed once more as the case they make, from the seed its own
// calls need when that reproduces every result.
import { isDeepStrictEqual } from 'node:util';
import type { BashMode, CaseDraft, MappedCall } from '../record-types.ts';
import type { ReplayPool, ReplaySession } from './replay-pool.ts';
import { changes, deriveSeed, touchedPaths, type FilesFrom, type Seed } from '../seed/seed-files.ts';
import type { Step } from '../map/prepare-steps.ts';
import { judgeWindow, type Judged } from './judge-window.ts';
import { verifyResult } from './verify-result.ts';
import { foreignCommands } from '../map/portable-commands.ts';
import { mergeAdjacent, type Part, splitOversize } from './split-case.ts';

export { SLOW_CALL_MS } from './judge-window.ts';

// How cases are built.
export type BuildOptions = {
  maxCalls: number;
  bash: BashMode;
  pool: ReplayPool;
  filesFrom?: FilesFrom;
  signal?: AbortSignal;
  // Called once per call replayed (for progress).
  onReplayed?: () => void;
};

// The cases, and per step (by position) why it is in none and, for replayed calls that did not reproduce,
// the verdict that said so.
export type Built = Judged & { drafts: CaseDraft[] };

// Why a command is not replayed: it runs something outside the course's portable commands, which a student's
// machine may not have (`… | jq .` fails there with exit 127, for no fault of their code).
export function unportable(name: string): string {
  return `Bash runs ${name}, not one of the course's portable commands (docs/tools.md)`;
}

// The calls a transcript's replay will judge at most: every mapped call not dropped before any replay.
export function candidates(steps: Step[], bash: BashMode): number {
  return steps.filter((s) => {
    if (s.drop !== undefined || s.mapped === undefined) return false;
    if (s.mapped.check.kind !== 'bash' || bash === 'keep') return true;
    return bash === 'reproducible' && foreignCommands(String(s.mapped.call.input.command ?? '')).length === 0;
  }).length;
}

// Builds the cases of one transcript's steps.
export async function buildCases(steps: Step[], options: BuildOptions): Promise<Built> {
  const built: Built = { drafts: [], dropped: new Map(), divergences: new Map(), replayed: new Set() };
  for (const step of steps) {
    if (step.drop !== undefined) built.dropped.set(step.position, step.drop);
    else if (options.bash === 'drop' && step.mapped?.check.kind === 'bash')
      built.dropped.set(step.position, 'Bash, with --bash drop');
    else if (options.bash === 'reproducible' && step.mapped?.check.kind === 'bash') {
      const [foreign] = foreignCommands(String(step.mapped.call.input.command ?? ''));
      if (foreign !== undefined) built.dropped.set(step.position, unportable(foreign));
    }
  }
  const agents = [...new Set(steps.map((s) => s.imported.agent))];
  const timelines = agents.map((agent) => steps.filter((s) => s.imported.agent === agent));
  const drafts = await Promise.all(timelines.map((timeline) => buildTimeline(timeline, built, options)));
  built.drafts = drafts.flat();
  return built;
}

async function buildTimeline(timeline: Step[], built: Built, options: BuildOptions): Promise<CaseDraft[]> {
  const drafts: CaseDraft[] = [];
  const at = new Map(timeline.map((s, i) => [s.imported.id, i]));
  const partOf = (draft: CaseDraft): Part => ({ kept: draft.calls.map((c) => at.get(c.id) ?? -1), draft });
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
    const outcome = await judgeWindow(timeline, window, end, seed.files, built, options, (at, session) =>
      reproducesAlone(timeline, at, session, filesFrom),
    );
    if (outcome.kept.length > 0) {
      const kept = (step: Step) => !built.dropped.has(step.position);
      const confirmPart = (part: number[]) => confirm(timeline, part, seed, options, filesFrom, kept);
      const draft = await confirmPart(outcome.kept);
      if (draft === undefined)
        for (const i of outcome.kept)
          built.dropped.set(timeline[i]?.position ?? -1, 'did not reproduce as a whole case');
      else drafts.push(...(await splitOversize(outcome.kept, draft, confirmPart)));
    }
    next = outcome.next;
  }
  // Adjacent cases that reproduce together are one (split-case.ts): replayed from the seed their calls need.
  const kept = (step: Step) => !built.dropped.has(step.position);
  const together = async (part: number[]): Promise<CaseDraft | undefined> => {
    const filesFrom =
      options.filesFrom === undefined
        ? undefined
        : { read: options.filesFrom, changedEarlier: changedEarlier(part[0] ?? 0) };
    const seed = await seedFor(timeline, part, filesFrom);
    return seed.tooLarge.length > 0 ? undefined : confirm(timeline, part, seed, options, filesFrom, kept);
  };
  const merged = await mergeAdjacent(drafts.map(partOf), together, options.maxCalls);
  return merged.map((p) => p.draft);
}

// Whether a call reproduces in a sandbox seeded from what the recording shows around it: then its difference in
// the case so far means the world changed outside the calls.
async function reproducesAlone(
  timeline: Step[],
  at: number,
  session: ReplaySession,
  filesFrom: Parameters<typeof deriveSeed>[3],
): Promise<boolean> {
  const step = timeline[at] as Step;
  const seed = await seedFor(timeline, [at], filesFrom);
  const run = await session
    .replay({ files: seed.files, calls: [(step.mapped as MappedCall).call] })
    .catch(() => undefined);
  return (
    run !== undefined &&
    verifyResult(step.mapped as MappedCall, step.imported.result, run.results[0] ?? {}, run.after[0]).ok
  );
}

// The seed for the calls of `window`. A command names files the recording knows of from any call up to the
// window's end (those `knows` counts): a file an earlier case's Write made is one a later case's `chmod +x` needs.
async function seedFor(
  timeline: Step[],
  window: number[],
  filesFrom?: Parameters<typeof deriveSeed>[3],
  knows: (step: Step) => boolean = () => true,
): Promise<Seed> {
  const from = window[0] ?? 0;
  const to = window.at(-1) ?? from;
  const known = new Set<string>();
  for (let i = 0; i <= to; i++) {
    if (timeline[i] === undefined || !knows(timeline[i] as Step)) continue;
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

// The case for the kept calls, replayed once more as it will be written: with the seed its own calls need when
// that reproduces every kept result, else with the window's seed (which did). What its own calls need: the files
// they touch, and of the files a command names (a directory, a wildcard) first only those a call not dropped
// shows, so that a listing nobody kept seeds nothing (a `cd deps/ && …` seeding every empty file a dropped Glob
// listed); then all the recording knows of.
async function confirm(
  timeline: Step[],
  kept: number[],
  windowSeed: Seed,
  options: BuildOptions,
  filesFrom: Parameters<typeof deriveSeed>[3],
  notDropped: (step: Step) => boolean,
): Promise<CaseDraft | undefined> {
  const calls = kept.map((i) => (timeline[i]!.mapped as MappedCall).call);
  const lean = await seedFor(timeline, kept, filesFrom, notDropped);
  const own = await seedFor(timeline, kept, filesFrom);
  const seeds = [lean, own, windowSeed].filter(
    (seed, i, all) => all.findIndex((other) => isDeepStrictEqual(other.files, seed.files)) === i,
  );
  for (const seed of seeds) {
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
