// A recorded case re-verified when its snapshot changes: does the reference still reproduce what the recorded
// agent's tools answered (recordings/<stage>/<case>.json), by the recorder's own rules (src/record/replay/
// verify-result.ts)? Each call is judged with the old snapshot and with the new one, and the answer is one of:
// unchanged, it now diverges from the agent (the first such call, with both sides), or it now reproduces where it
// did not. Pure.
import type { Recording } from '../../course/recording-file.ts';
import type { Call } from '../../course/types.ts';
import type { CheckSpec, MappedCall } from '../../record/record-types.ts';
import { verifyResult, type Replayed } from '../../record/replay/verify-result.ts';

export type RecordingCheck =
  // `reproduced`: how many calls reproduce the recording, before and now alike.
  | { kind: 'unchanged'; reproduced: number; calls: number }
  | { kind: 'diverges'; index: number; tool: string; reason: string; recorded: string; replayed: string }
  | { kind: 'reproduces'; indices: number[] }
  // The recording and the case do not match (another number of calls): it says nothing.
  | { kind: 'unknown'; why: string };

// Judges the case's results before (null: it had no snapshot) and after against its recording.
export function verifyRecording(
  recording: Recording,
  calls: Call[],
  before: unknown[] | null,
  after: unknown[],
): RecordingCheck {
  if (recording.calls.length !== calls.length || after.length !== calls.length) {
    return {
      kind: 'unknown',
      why: `the recording has ${recording.calls.length} calls and the case ${calls.length}: record the case again`,
    };
  }
  const judge = (results: unknown[] | null) =>
    calls.map((call, k) => (results === null ? undefined : verdictOf(recording, call, k, results[k])));
  const was = judge(before);
  const now = judge(after);
  const diverged = now.findIndex((v, k) => v?.ok === false && was[k]?.ok !== false);
  const verdict = now[diverged];
  if (verdict !== undefined && !verdict.ok) {
    const tool = calls[diverged]?.tool ?? '';
    return { kind: 'diverges', index: diverged, tool, ...verdict };
  }
  const fixed = now.flatMap((v, k) => (v?.ok === true && was[k]?.ok === false ? [k] : []));
  if (fixed.length > 0) return { kind: 'reproduces', indices: fixed };
  return { kind: 'unchanged', reproduced: now.filter((v) => v?.ok === true).length, calls: calls.length };
}

function verdictOf(recording: Recording, call: Call, k: number, result: unknown) {
  const recorded = recording.calls[k];
  if (recorded === undefined) return undefined;
  // The file a write left is seen only in a replay, not in a snapshot: an Edit is judged by its result alone.
  const { expectedAfter: _, ...check } = recorded.check;
  const mapped: MappedCall = {
    id: recorded.id,
    call,
    originalTool: call.tool,
    renamedKeys: {},
    droppedKeys: {},
    check: check as CheckSpec,
  };
  const r = recorded.recorded;
  const imported = {
    content: r.content,
    isError: r.is_error,
    line: 0,
    ...(r.details === undefined ? {} : { details: r.details }),
  };
  return verifyResult(mapped, imported, (result ?? {}) as Replayed);
}
