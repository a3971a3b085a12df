// Where a failure points in the student's code, for the consumers that put a failure on a file (GitHub annotations,
// JUnit's `file`, TAP's `at`): the file the stage has the student write (src/course/stages.ts `writes`), and the line
// of it that a stack trace in the failure names, when one does.
import { stageOf } from '../../course/stages.ts';
import type { CaseResult } from '../types.ts';

// A file as a consumer names it (relative to where the CI job runs), and the line when one is known.
export type SourcePlace = { file: string; line?: number };

// How a reporter turns a stage into the path its consumer reads: the CLI passes one relative to its working
// directory; the default is the path inside the course directory.
export type SourceFileOf = (stage: string) => string | undefined;

// The stage's own file, as the course directory holds it (`src/execute.ts`).
export function stageFile(stage: string): string | undefined {
  return stageOf(stage)?.writes[0];
}

// The place a failed case points at: the stage's file, and the line a stack frame in the case's output or message
// gives for it (the first frame naming it: Node prints the innermost call first).
export function sourcePlace(c: CaseResult, stage: string, fileOf: SourceFileOf = stageFile): SourcePlace | undefined {
  const file = fileOf(stage);
  const own = stageFile(stage);
  if (file === undefined || own === undefined) return undefined;
  const text = `${c.failure?.message ?? ''}\n${c.output}`;
  const frame = new RegExp(`${escapeRegExp(own)}:(\\d+)(?::\\d+)?`, 'g');
  const lines = [...text.matchAll(frame)].map((m) => Number(m[1]));
  const line = lines.find((n) => Number.isSafeInteger(n) && n > 0);
  return line === undefined ? { file } : { file, line };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
