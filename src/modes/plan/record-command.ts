// `theinference record <transcript>… --stage plan-todos`: the loop mode's recorder (src/modes/loop/record-command.ts)
// with each session's loops made plan loops first (record/todo-loops.ts): TodoWrite as the todo tool, only the loops
// that plan, each also from its later todo calls on. Every case says where its turns came from (`source`), and is
// snapshotted by the reference plan loop.
import type { ModeRecorder } from '../../cli/commands/mode-recorder.ts';
import { recorder as loopRecorder, recordLoopCommand } from '../loop/record-command.ts';
import { todoLoops } from './record/todo-loops.ts';

export const recorder: ModeRecorder = {
  ...loopRecorder,
  record: (flags, io) => recordLoopCommand(flags, io, { session: todoLoops }),
};
