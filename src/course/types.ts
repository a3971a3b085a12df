// The case file formats: cases/<stage>/<slug>.json, each stage's validated against its schema (src/course/stages.ts).
import type { Visibility } from './case-weight.ts';

export type FileSpec = string | { base64: string } | { symlink: string };

export type Call = { tool: string; input: Record<string, unknown> };

// A register-tools case (cases/case.schema.json): files to seed, then calls fed through makeExecute.
export type CaseFile = {
  $schema?: string;
  description: string;
  files?: Record<string, FileSpec>;
  calls: Call[];
  // What the case is worth (1 when absent) and who sees its expected result ('visible' when absent):
  // src/course/case-weight.ts.
  points?: number;
  visibility?: Visibility;
  // Where a recorded case came from (transcript file, tool_use id…); informational.
  source?: Record<string, unknown>;
};

// A JSON object of the Messages API (a content block, a tool, a message param), kept exactly as written.
export type ApiObject = Record<string, unknown>;

// One model turn of a loop case: the Message the fake API answers with, and the bytes of the stream it was
// recorded from, served as they are to a streaming request (a synthesized stream of the message otherwise).
export type LoopTurn = {
  message: ApiObject & { content: ApiObject[]; stop_reason: string | null };
  stream?: string;
};

// What the scripted `execute` gives for one tool_use: a ToolOutput, or an error it throws with this message.
// `delay_ms`: how long execute takes to answer, so that a turn's calls can finish in another order than they were
// made (never part of what execute answers).
export type ScriptedOutput = ({ content: string; is_error?: boolean; exit_code?: number } | { throws: string }) & {
  delay_ms?: number;
};

// What a loop's request asks for: its keys, as the stage grades them and the driver's fake API records them
// (src/modes/loop/). The rest of a request body (`stream: true` above all) is how it asked.
export const LOOP_REQUEST_KEYS = ['model', 'max_tokens', 'system', 'tools', 'messages'] as const;

// The request a loop case hands runLoop (the package's `LoopRequest`).
export type LoopRequestData = {
  model: string;
  max_tokens: number;
  system?: string | ApiObject[];
  tools: ApiObject[];
  messages: ApiObject[];
};

// An agent-loop case (cases/agent-loop.schema.json): the request runLoop is given, the model's turns in order,
// and what execute answers for each tool_use id.
export type LoopCaseFile = {
  $schema?: string;
  description: string;
  request: LoopRequestData;
  turns: LoopTurn[];
  outputs?: Record<string, ScriptedOutput>;
  // As a register-tools case's (src/course/case-weight.ts).
  points?: number;
  visibility?: Visibility;
  source?: Record<string, unknown>;
};

// Any stage's case file.
export type CaseData = CaseFile | LoopCaseFile;

// A dispatcher case's calls; undefined for a case of another mode (a loop case has turns).
export function callsOf(data: CaseData | undefined): Call[] | undefined {
  return data !== undefined && 'calls' in data ? data.calls : undefined;
}

// A case as the grader knows it: its stage, its slug (file name without .json) and its file. What `data` holds is
// the stage's format: code of one driver mode names it (`Case<CaseFile>`), the rest reads only its description.
export type Case<D extends CaseData = CaseData> = {
  stage: string;
  name: string;
  file: string;
  data: D;
};

// The snapshot file format: snapshots/<stage>/<slug>.json.
export type Snapshot = { results: unknown[] };
