// The progress lines `theinference record` keeps on a terminal: while it replays, how many of the calls to replay
// are done and the transcript it is in; while the reference snapshots the cases, how many are done. Pure; the CLI
// rewrites the line in place (src/cli/commands/progress-line.ts).
import type { RecordProgress } from '../record-types.ts';

export function progressLine(p: RecordProgress): string {
  const share = p.of === 0 ? 100 : Math.floor((100 * p.replayed) / p.of);
  return `replaying: ${p.replayed} of ${p.of} calls (${share} %), ${p.transcript}`;
}

export function snapshotLine(done: number, of: number): string {
  const share = of === 0 ? 100 : Math.floor((100 * done) / of);
  return `snapshotting with the reference: ${done} of ${of} cases (${share} %)`;
}
