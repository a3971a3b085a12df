// A recorded case's re-verification in words, for the snapshot report and the review: unchanged, now diverging
// from the agent (with the diff, as `record` shows a divergence), or now reproducing where it did not.
import { renderLineDiff } from '../../grade/report/render-diff.ts';
import type { RecordingCheck } from './verify-recording.ts';

// The lines, the first one starting `recording:`.
export function renderRecordingCheck(check: RecordingCheck, o: { color: boolean }): string[] {
  switch (check.kind) {
    case 'unchanged':
      return [
        `recording: unchanged — the reference reproduces ${check.reproduced} of the ${check.calls} recorded calls, as before`,
      ];
    case 'reproduces': {
      const calls = check.indices.map((k) => k + 1).join(', ');
      return [`recording: now reproduces the recorded agent at call ${calls}, where it did not`];
    }
    case 'unknown':
      return [`recording: cannot tell (${check.why})`];
    case 'diverges': {
      const diff = renderLineDiff(check.recorded.split('\n'), check.replayed.split('\n'), {
        color: o.color,
        labels: { expected: 'recorded (the agent)', received: 'reference now' },
        context: 2,
        maxLines: 14,
      });
      return [
        `recording: now diverges from the recorded agent at call ${check.index + 1} (${check.tool}): ${check.reason}`,
        ...diff.split('\n').map((l) => (l === '' ? l : `  ${l}`)),
      ];
    }
  }
}
