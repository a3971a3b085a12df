// `theinference record <transcript>… --stage compact-context`: the loop recorder (src/modes/loop/record-command.ts)
// reads each transcript as loops, and each loop becomes a micro-compaction case; each compaction a Claude Code
// session made becomes a case that compacts with the model's recorded summary (record/compact-cases.ts). Snapshots
// come from the reference (src/compact-loop.ts), as for the loop's cases.
import type { ModeRecorder } from '../../cli/commands/mode-recorder.ts';
import { recorder as loopRecorder, recordLoopCommand } from '../loop/record-command.ts';
import { compactCases, recordedCompactions } from './record/compact-cases.ts';

export const recorder: ModeRecorder = {
  ...loopRecorder,
  record: (flags, io) =>
    recordLoopCommand(flags, io, {
      cases: async ({ file, session, drafts, redact }) => {
        const compactions = session.format === 'claude-code' ? await recordedCompactions(file) : [];
        const made = compactCases(session, drafts, compactions, redact);
        session.skipped.push(...made.skipped);
        return made.drafts;
      },
    }),
};
