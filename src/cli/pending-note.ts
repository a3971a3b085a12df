// The note after a run that failed cases whose new snapshot waits for review: `theinference snapshot` wrote
// `<case>.json.new` beside the snapshot, and `test` grades against the snapshot until the author accepts it, so the
// failure is the review not done yet, not the program. Synchronous (a few stat calls), like next-step.ts.
import { existsSync } from 'node:fs';
import { pendingPath, PENDING_SUFFIX } from '../course/snapshot-file.ts';
import { stageReports } from '../grade/run-course.ts';
import type { RunReport } from '../grade/types.ts';

// Failed cases named in the note before the rest are only counted.
const NAMED = 5;

// One line per stage with such failures (none when there are none); `root` is the package whose snapshots graded.
export function pendingNote(report: RunReport, root: string): string[] {
  return stageReports(report).flatMap((r) => {
    const pending = r.cases
      .filter((c) => c.status === 'fail' && existsSync(pendingPath(root, r.stage, c.name)))
      .map((c) => c.name);
    if (pending.length === 0) return [];
    const named =
      pending.slice(0, NAMED).join(', ') + (pending.length > NAMED ? ` and ${pending.length - NAMED} more` : '');
    const them = pending.length === 1 ? 'it' : 'them';
    return [
      `note: ${pending.length === 1 ? 'a failed case has' : `${pending.length} failed cases have`} a new snapshot pending review (${named}: snapshots/${r.stage}/*${PENDING_SUFFIX}); test grades against the accepted snapshot. Review ${them} with \`npx theinference snapshot --stage ${r.stage} --review\`.`,
    ];
  });
}
