// `theinference record <transcript>… --stage <slug> [--name <slug>] [--dir <course dir>] [--format <fmt>]
// [--files-from <dir>] [--max-calls <n>] [--bash reproducible|keep|drop] [--redact <regex>…] [--dry-run] [--force]`:
// what a transcript becomes is the stage's mode's to say (src/modes/<mode>/record-command.ts: the dispatcher's tool
// cases, the loop's model turns). `--live` and its flags belong to `theinference record --live`
// (src/cli/commands/record-live.ts).
import { requireReference } from '../../course/reference.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { HarnessError } from '../../errors.ts';
import type { CommandIo, Outcome } from './io.ts';
import { recorderOf } from './mode-recorder.ts';
import type { RecordFlags } from './record-flags.ts';

export type { RecordFlags } from './record-flags.ts';

// Records the transcripts into the course directory; 'misuse' (exit 2) when a file cannot be used or a case
// exists with other content.
export async function recordCommand(flags: RecordFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const stage = await requireStage(root, flags.stage);
  await requireReference(root, 'record', stage.writes);
  const recorder = await recorderOf(stage.mode);
  if (recorder === undefined) {
    throw new HarnessError(
      'BAD_FLAG',
      `--stage ${stage.slug} records no transcripts: its mode (${stage.mode}) has no recorder (src/modes/${stage.mode}/record-command.ts)`,
    );
  }
  return recorder.record(flags, io);
}
