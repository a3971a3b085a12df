// The re-verification of a recorded case whose snapshot changes, read from disk: its recording (if it has one),
// judged against the snapshot on disk and the new one, in words. Shared by the snapshot report and the review.
import { readRecording } from '../../course/recording-file.ts';
import { parseSnapshot } from '../../course/snapshot-file.ts';
import type { Case } from '../../course/types.ts';
import { callsOf } from '../../modes/dispatch/case.ts';
import { renderRecordingCheck } from './render-recording-check.ts';
import { verifyRecording } from './verify-recording.ts';

// The lines for a case, or undefined when it has no recording (a case written by hand).
export async function recordedDrift(
  root: string,
  c: Case,
  before: string | null,
  after: string,
  o: { color: boolean },
): Promise<string[] | undefined> {
  const recording = await readRecording(root, c.stage, c.name);
  if (recording === null) return undefined;
  if (typeof recording === 'string') return [`recording: cannot tell (${recording})`];
  const old = before === null ? null : parseSnapshot(before);
  const now = parseSnapshot(after);
  if (typeof now === 'string' || typeof old === 'string') return undefined;
  return renderRecordingCheck(verifyRecording(recording, callsOf(c.data) ?? [], old?.results ?? null, now.results), o);
}
