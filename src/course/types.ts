// The case file formats: cases/<stage>/<slug>.json, each validated against its stage's mode's schema
// (src/modes/mode-table.ts).
import type { Visibility } from './case-weight.ts';

// A file as a case or a recording seeds it: its text, its bytes, or where a link points.
export type FileSpec = string | { base64: string } | { symlink: string };

// One tool call, as a dispatch case, the recorder and the judges' hints all name it.
export type Call = { tool: string; input: Record<string, unknown> };

// What every stage's case file holds, whatever its mode. A mode's own fields (a dispatch case's calls, a loop
// case's turns) are typed in its folder (src/modes/<mode>/case.ts), which sits above this room: code here and in
// the grader's common rooms deals in this type, and a mode's code narrows it to its own.
export type CaseData = {
  $schema?: string;
  description: string;
  // What the case is worth (1 when absent) and who sees its expected result ('visible' when absent):
  // src/course/case-weight.ts.
  points?: number;
  visibility?: Visibility;
  // Where a recorded case came from (transcript file, tool_use id…); informational.
  source?: Record<string, unknown>;
};

// A case as the grader knows it: its stage, its slug (file name without .json) and its file. What `data` holds is
// the stage's format: code of one driver mode names it (`Case<LoopCaseData>`), the rest reads only what CaseData has.
export type Case<D extends CaseData = CaseData> = {
  stage: string;
  name: string;
  file: string;
  data: D;
};

// The snapshot file format: snapshots/<stage>/<slug>.json.
export type Snapshot = { results: unknown[] };
