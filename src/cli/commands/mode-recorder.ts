// What `record` and `redact` do for a stage's mode: its folder's recorder (src/modes/<mode>/record-command.ts,
// exported as `recorder`), reached by the mode's name through the one table of modes (src/modes/mode-table.ts). A
// mode without one records no transcripts.
import type { CaseData } from '../../course/types.ts';
import { aspectExport, aspectUrl, hasAspect, type ModeName } from '../../modes/mode-table.ts';
import type { RedactionSources } from '../../record/map/redact.ts';
import type { RedactedCase } from '../redact/redact-case.ts';
import type { CommandIo, Outcome } from './io.ts';
import type { RecordFlags } from './record-flags.ts';

export type ModeRecorder = {
  // `theinference record <transcript>… --stage <slug>` for a stage of this mode (its stage and reference checked).
  record: (flags: RecordFlags, io: CommandIo) => Promise<Outcome>;
  // Whether its cases replay tool calls in a seeded sandbox, so that --bash and --files-from mean something.
  replaysTools: boolean;
  // A recorded case after `redact` went over its text (`recorded`: as it was), when the mode has more to do.
  redacted?: (recorded: CaseData, r: RedactedCase, sources: RedactionSources) => Promise<RedactedCase>;
};

// The recorder of mode `mode`, or undefined when its folder has none.
export async function recorderOf(mode: ModeName): Promise<ModeRecorder | undefined> {
  if (!hasAspect(mode, 'record-command')) return undefined;
  const module: unknown = await import(aspectUrl(mode, 'record-command').href);
  return aspectExport<ModeRecorder>(module, mode, 'record-command', 'recorder');
}
