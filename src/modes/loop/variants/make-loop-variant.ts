// An agent-loop case's variant: the same loop with the model's words and the tools' answers renamed. The letters of
// every text the conversation carries (the user's messages, the model's text and thinking, each tool's output and
// each error an execute throws) and of every tool_use id after its `toolu_` prefix are replaced through the seeded
// permutation of register-tools' variants (letter-map.ts), in the request, the turns, their recorded streams and the
// outputs alike. What stays: the model, max_tokens, system, tools, tool names and inputs, stop reasons, thinking
// signatures, redacted thinking. A loop that sends back what it was served gives the reference loop's results for
// the variant; one that returns stored conversations gives the case's, which name the old words and ids. Pure.
import type { ApiObject, LoopCaseData, LoopTurn, ScriptedOutput } from '../case.ts';
import { letterMap, mapAll, type LetterMap } from '../../../grade/variants/letter-map.ts';

// A loop case's variant, or why it has none.
export type LoopVariant = { ok: true; data: LoopCaseData } | { ok: false; why: string };

export function makeLoopVariant(c: { name: string; data: LoopCaseData }, seed: number): LoopVariant {
  const rename = loopRenaming(letterMap(seed, c.name));
  const { request, turns, outputs } = c.data;
  let renamedTurns: LoopTurn[];
  try {
    renamedTurns = turns.map((t) => ({
      ...t,
      message: { ...t.message, content: t.message.content.map(rename.block) },
      ...(t.stream === undefined ? {} : { stream: renameStream(t.stream, rename) }),
    }));
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, why: 'a recorded stream holds an event that is not JSON' };
    throw error;
  }
  const data: LoopCaseData = {
    ...c.data,
    request: { ...request, messages: request.messages.map(rename.message) },
    turns: renamedTurns,
    ...(outputs === undefined
      ? {}
      : { outputs: Object.fromEntries(Object.entries(outputs).map(([id, o]) => [rename.id(id), rename.output(o)])) }),
  };
  if (JSON.stringify(data) === JSON.stringify(c.data)) return { ok: false, why: 'nothing in it to rename' };
  return { ok: true, data };
}

// The renaming of each part of a conversation: its texts and ids, one letter map for all.
export type LoopRenaming = {
  text: (text: string) => string;
  id: (id: string) => string;
  block: (block: ApiObject) => ApiObject;
  message: (message: ApiObject) => ApiObject;
  output: (output: ScriptedOutput) => ScriptedOutput;
};

export function loopRenaming(map: LetterMap): LoopRenaming {
  const text = (s: string): string => mapAll(s, map);
  // `toolu_01Ab…` keeps its prefix: an id still looks like one, and stays unique (a permutation is one to one).
  const id = (s: string): string => {
    const cut = s.indexOf('_') + 1;
    return s.slice(0, cut) + text(s.slice(cut));
  };
  const content = (value: unknown): unknown =>
    typeof value === 'string' ? text(value) : Array.isArray(value) ? value.map((b) => block(b as ApiObject)) : value;
  const block = (b: ApiObject): ApiObject => {
    switch (b.type) {
      case 'text':
        return typeof b.text === 'string' ? { ...b, text: text(b.text) } : b;
      case 'thinking':
        return typeof b.thinking === 'string' ? { ...b, thinking: text(b.thinking) } : b;
      case 'tool_use':
        return typeof b.id === 'string' ? { ...b, id: id(b.id) } : b;
      case 'tool_result':
        return {
          ...b,
          ...(typeof b.tool_use_id === 'string' ? { tool_use_id: id(b.tool_use_id) } : {}),
          ...('content' in b ? { content: content(b.content) } : {}),
        };
      default:
        return b;
    }
  };
  const message = (m: ApiObject): ApiObject => ({ ...m, content: content(m.content) });
  const output = (o: ScriptedOutput): ScriptedOutput =>
    'throws' in o ? { ...o, throws: text(o.throws) } : { ...o, content: text(o.content) };
  return { text, id, block, message, output };
}

// A recorded stream with the same renaming applied to what its events carry: each `data:` line parsed, renamed and
// written again, every other line (event names, blank lines) as it was. Tool input in pieces (input_json_delta)
// stays, as tool inputs do.
function renameStream(stream: string, rename: LoopRenaming): string {
  return stream
    .split('\n')
    .map((line) => {
      if (!line.startsWith('data:')) return line;
      const event = JSON.parse(line.slice('data:'.length)) as ApiObject;
      return `data: ${JSON.stringify(renameEvent(event, rename))}`;
    })
    .join('\n');
}

function renameEvent(event: ApiObject, rename: LoopRenaming): ApiObject {
  const object = (v: unknown): ApiObject | undefined =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as ApiObject) : undefined;
  switch (event.type) {
    case 'message_start': {
      const m = object(event.message);
      return m === undefined ? event : { ...event, message: rename.message(m) };
    }
    case 'content_block_start': {
      const b = object(event.content_block);
      return b === undefined ? event : { ...event, content_block: rename.block(b) };
    }
    case 'content_block_delta': {
      const d = object(event.delta);
      if (d?.type === 'text_delta' && typeof d.text === 'string')
        return { ...event, delta: { ...d, text: rename.text(d.text) } };
      if (d?.type === 'thinking_delta' && typeof d.thinking === 'string')
        return { ...event, delta: { ...d, thinking: rename.text(d.thinking) } };
      return event;
    }
    default:
      return event;
  }
}
