// A loop stage's case file (agent-loop; cases/agent-loop.schema.json, named by the mode's row in
// src/modes/mode-table.ts): the request runLoop is given, the model's turns in order, and what execute answers for
// each tool_use id. Code outside this mode holds a case as the shared CaseData (src/course/types.ts).
import type { CaseData } from '../../course/types.ts';

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

// What a loop's request asks for: its keys, as the stage grades them and the driver's fake API records them.
// The rest of a request body (`stream: true` above all) is how it asked.
export const LOOP_REQUEST_KEYS = ['model', 'max_tokens', 'system', 'tools', 'messages'] as const;

// The request a loop case hands runLoop (the package's `LoopRequest`).
export type LoopRequestData = {
  model: string;
  max_tokens: number;
  system?: string | ApiObject[];
  tools: ApiObject[];
  messages: ApiObject[];
};

// An API error the fake API answers the request after the last turn with (request turns.length + 1): its HTTP
// status (400-599) and the error body's type and message, as the Messages API words one; the SDK throws it.
export type ApiErrorScript = { status: number; type: string; message: string };

export type LoopCaseData = CaseData & {
  request: LoopRequestData;
  turns: LoopTurn[];
  outputs?: Record<string, ScriptedOutput>;
  api_error?: ApiErrorScript;
};
