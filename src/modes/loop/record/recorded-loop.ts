// A recorded session read as loops, what `theinference record --stage agent-loop` turns into cases: each human
// prompt starts a loop that runs until the model stops, and only a loop that ran to its end (every tool it asked
// for answered, the model done, no interruption) can be replayed against a student's loop.
import type { ApiObject, LoopRequestData, LoopTurn, ScriptedOutput } from '../case.ts';

// One loop of the session, ready to be a case.
export type RecordedLoop = {
  request: LoopRequestData;
  turns: LoopTurn[];
  outputs: Record<string, ScriptedOutput>;
  // What the recording does not hold and took a documented default (system, tools, max_tokens).
  defaults: string[];
  // The prompt that started it (its first line, for the report) and when its first turn was made.
  prompt: string;
  recorded?: string;
  // The requests (numbered from 1) the recording's agent sent otherwise than a loop keeping to the contract would
  // (its own additions to the conversation, another system prompt): the script serves the recorded turns all the
  // same, and the snapshot is the reference loop's.
  differs?: number[];
};

// A loop that cannot be a case, and why.
export type SkippedLoop = { prompt: string; why: string };

// A session's loops.
export type LoopSession = {
  format: 'claude-code' | 'live' | 'anthropic';
  session?: string;
  cwd?: string;
  loops: RecordedLoop[];
  skipped: SkippedLoop[];
};

// The ids and names of a turn's tool_use blocks.
export function toolUses(message: { content: ApiObject[] }): { id: string; name: string }[] {
  return message.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: String(b.id), name: String(b.name) }));
}

// How many of a loop's turns call more than one tool.
export function parallelTurns(loop: RecordedLoop): number {
  return loop.turns.filter((t) => toolUses(t.message).length > 1).length;
}

// The first line of a prompt, cut for the report.
export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

// A line of JSON as an object, or undefined.
export function parseObject(text: string): ApiObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is ApiObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
