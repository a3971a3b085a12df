// The progress line `theinference record` keeps on a terminal while it replays: how many of the calls to replay
// are done, and the transcript it is in. Pure; the CLI rewrites the line in place.
import type { RecordProgress } from '../record-types.ts';

export function progressLine(p: RecordProgress): string {
  const share = p.of === 0 ? 100 : Math.floor((100 * p.replayed) / p.of);
  return `replaying: ${p.replayed} of ${p.of} calls (${share} %), ${p.transcript}`;
}
