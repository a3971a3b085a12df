// Judges one window of a timeline, call by call, in a replay session (src/record/replay/replay-session.ts): each
// call is replayed once where the calls kept before it left the sandbox, judged against the recording at once
// (src/record/replay/verify-result.ts), and when it is dropped after changing the sandbox (a command that failed
// here, a write that should not have succeeded) it is undone, so the calls after it see what they would without it.
// A reproducible Bash call is replayed a second time from the same state (undo, then again) and must agree with
// itself. So a window of N calls costs N replayed calls (a Bash call two), and a command that hangs waits out its
// bound once, whatever its place.
//
// A call that does not reproduce but shows the file it touched as it was (a Read, an Edit's or Write's original, a
// listing) is asked whether it reproduces from that evidence alone: then the world changed outside the calls before
// it (a formatter, the user, a command that could not be kept), and the window ends there, the next one starting
// with it. Only the window's first call cannot end it so: its seed is already that evidence.
import { isDeepStrictEqual } from 'node:util';
import type { FileSpec } from '../../course/types.ts';
import type { BashMode, MappedCall } from '../record-types.ts';
import type { Step } from '../map/prepare-steps.ts';
import type { ReplayPool, ReplaySession, ReplayStep } from './replay-pool.ts';
import { type Replayed, verifyResult, type ReplayVerdict } from './verify-result.ts';

// A command that takes longer than this in a replay is not kept: a student's run of the whole case has the case
// timeout (DEFAULT_CASE_TIMEOUT_MS), and docs/cases.md keeps a case's sleeps within this.
export const SLOW_CALL_MS = 2_000;

// What judging writes down per step (by position): why it is in no case, the verdict of a replayed call that did not
// reproduce, which calls were replayed.
export type Judged = {
  dropped: Map<number, string>;
  divergences: Map<number, ReplayVerdict>;
  replayed: Set<number>;
};

export type JudgeOptions = {
  bash: BashMode;
  pool: ReplayPool;
  signal?: AbortSignal;
  // Called once per call replayed (for progress).
  onReplayed?: () => void;
};

// The calls kept, and the timeline index the next window starts at.
export type WindowOutcome = { kept: number[]; next: number };

// Judges the calls at `window` (timeline indices, in order) from `files`; `end` is where the next window starts
// when this one runs to its end. `worldChanged(i, session)`: whether call i, which differs, reproduces from what the
// recording shows around it (replayed on the session's worker).
export async function judgeWindow(
  timeline: Step[],
  window: number[],
  end: number,
  files: Record<string, FileSpec>,
  judged: Judged,
  options: JudgeOptions,
  worldChanged: (i: number, session: ReplaySession) => Promise<boolean>,
): Promise<WindowOutcome> {
  const kept: number[] = [];
  const failRest = (from: number, error: unknown): WindowOutcome => {
    const why = `replay failed: ${error instanceof Error ? error.message : String(error)}`;
    for (const i of window.slice(from)) judged.dropped.set(timeline[i]?.position ?? -1, why);
    return { kept, next: end };
  };
  let session: ReplaySession;
  try {
    session = await options.pool.session(files);
  } catch (error) {
    return failRest(0, error);
  }
  try {
    for (const [k, i] of window.entries()) {
      options.signal?.throwIfAborted();
      const step = timeline[i] as Step;
      const mapped = step.mapped as MappedCall;
      let first: ReplayStep;
      try {
        first = await session.call(mapped.call);
      } catch (error) {
        return failRest(k, error);
      }
      judged.replayed.add(step.position);
      options.onReplayed?.();
      let verdict = verifyResult(mapped, step.imported.result, first.result, first.after);
      let last = first;
      let bashMs = first.bashMs;
      let quiet = first.unchanged;
      if (verdict.ok && options.bash === 'reproducible' && mapped.check.kind === 'bash') {
        let again: ReplayStep | undefined;
        try {
          again = (await session.undo()) ? await session.call(mapped.call) : undefined;
        } catch (error) {
          return failRest(k, error);
        }
        if (again === undefined) {
          // The sandbox could not be saved: the command ran once, so the window goes on from its state only if kept.
          judged.dropped.set(step.position, 'Bash: the sandbox could not be saved to replay it twice');
          return { kept, next: i + 1 };
        }
        if (!isDeepStrictEqual(first.result, again.result)) verdict = twoReplaysDiffer(first.result, again.result);
        last = again;
        bashMs = Math.max(bashMs, again.bashMs);
        quiet = quiet && again.unchanged;
      }
      const slow = verdict.ok && bashMs > SLOW_CALL_MS;
      if (verdict.ok && !slow) {
        judged.divergences.delete(step.position);
        kept.push(i);
        continue;
      }
      // A command that reproduces but is too slow is no divergence: the course's bash gave what the agent's did.
      if (slow)
        judged.dropped.set(step.position, `Bash too slow for a case (over ${SLOW_CALL_MS / 1000} s in a replay)`);
      else if (!verdict.ok) {
        if (i !== window[0] && showsItsFile(step) && (await worldChanged(i, session))) return { kept, next: i };
        judged.dropped.set(step.position, `did not reproduce: ${verdict.reason}`);
        judged.divergences.set(step.position, verdict);
      }
      if (!changedNothing(mapped, last.result, quiet) && !(await session.undo())) return { kept, next: i + 1 };
    }
    return { kept, next: end };
  } finally {
    await session.close();
  }
}

function twoReplaysDiffer(a: Replayed, b: Replayed): ReplayVerdict {
  return { ok: false, reason: 'Bash: two replays differ', recorded: JSON.stringify(a), replayed: JSON.stringify(b) };
}

// Whether the recording shows what the call's file (or listing) was, so that a difference may mean the world
// changed.
function showsItsFile(step: Step): boolean {
  const kind = step.mapped?.check.kind;
  if (kind === 'glob' || kind === 'grep' || kind === 'directory') return step.evidence.before.size > 0;
  return step.path !== undefined && step.evidence.before.has(step.path);
}

// A call whose replay left the sandbox as it was: dropping it needs no undo. `quietShell`: the worker saw the
// sandbox's tree unchanged around this Bash call.
function changedNothing(mapped: MappedCall, replayed: Replayed, quietShell: boolean): boolean {
  const kind = mapped.check.kind;
  if (kind === 'view' || kind === 'directory' || kind === 'glob' || kind === 'grep') return true;
  if (kind === 'bash') return quietShell;
  return replayed.is_error === true;
}
