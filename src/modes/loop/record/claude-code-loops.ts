// A Claude Code session (`~/.claude/projects/<project>/<session>.jsonl`) read as loops. Its JSONL holds each
// assistant turn (one line per content block, grouped by the message's id), each tool result (one user line per
// tool_result) and the user's messages; not the system prompt, the tool definitions or max_tokens, which take
// Claude Code's defaults (claude-code-defaults.ts). Every user message of text starts a loop: a prompt, and also
// what Claude Code sends in the user's place (a hook's feedback, a task's notification), after which the model
// answered again. Subagents' lines (isSidechain) are not the session's loops. Streamed line by line.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ApiObject, LoopTurn, ScriptedOutput } from '../case.ts';
import { CLAUDE_CODE_MAX_TOKENS, CLAUDE_CODE_SYSTEM, claudeCodeTools } from './claude-code-defaults.ts';
import { firstLine, isObject, type LoopSession, parseObject, type RecordedLoop, toolUses } from './recorded-loop.ts';

// Text Claude Code writes as a user message for itself, not a prompt of the human's.
const OWN_TEXT =
  /^<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|user-memory-input|system-reminder)>/;
const INTERRUPTED = /^\[Request interrupted by user/;
// The stop reasons that end a loop.
const ENDS = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'refusal']);

type Line = Record<string, unknown> & {
  message?: { id?: string; model?: string; content?: unknown; stop_reason?: unknown; usage?: unknown };
};
// A loop as read: its prompt, whether Claude Code wrote it (not the human), its turns.
type Draft = {
  prompt: string;
  own: boolean;
  turns: LoopTurn[];
  interrupted: boolean;
  recorded?: string;
  synthetic: boolean;
};

// `sidechain`: read a subagent's lines instead (a `subagents/agent-*.jsonl` file, every line a sidechain one, or
// the sidechain lines of one agent inside a session's file, by its agentId): what the task mode's recorder reads.
export async function readClaudeCodeLoops(file: string, o: { sidechain?: true | string } = {}): Promise<LoopSession> {
  const wanted = (line: Line): boolean =>
    o.sidechain === undefined
      ? line.isSidechain !== true
      : line.isSidechain === true && (o.sidechain === true || line.agentId === o.sidechain);
  const results = new Map<string, ScriptedOutput>();
  const drafts: Draft[] = [];
  const used: string[] = [];
  let session: string | undefined;
  let cwd: string | undefined;
  let current: Draft | undefined;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const line = parseObject(text) as Line | undefined;
    if (line === undefined || !wanted(line) || line.message === undefined) continue;
    session ??= typeof line.sessionId === 'string' ? line.sessionId : undefined;
    cwd ??= typeof line.cwd === 'string' ? line.cwd : undefined;
    const content = line.message.content;
    if (line.type === 'assistant' && current !== undefined) {
      addBlocks(current, line, Array.isArray(content) ? content.filter(isObject) : []);
      for (const b of Array.isArray(content) ? content.filter(isObject) : [])
        if (b.type === 'tool_use') used.push(String(b.name));
    } else if (line.type === 'user') {
      const blocks =
        typeof content === 'string'
          ? [{ type: 'text', text: content }]
          : Array.isArray(content)
            ? content.filter(isObject)
            : [];
      for (const b of blocks.filter((b) => b.type === 'tool_result')) results.set(String(b.tool_use_id), output(b));
      const words = blocks
        .filter((b) => b.type === 'text')
        .map((b) => String(b.text))
        .join('\n');
      if (INTERRUPTED.test(words)) {
        if (current !== undefined) current.interrupted = true;
      } else if (words.trim() !== '') {
        const own = line.isMeta === true || OWN_TEXT.test(words.trim());
        current = { prompt: words, own, turns: [], interrupted: false, synthetic: false };
        drafts.push(current);
      }
    }
  }
  const tools = claudeCodeTools(used);
  const session_: LoopSession = {
    format: 'claude-code',
    loops: [],
    skipped: [],
    ...(session === undefined ? {} : { session }),
    ...(cwd === undefined ? {} : { cwd }),
  };
  // The conversation as a loop keeping to the contract sends it: each loop's request carries what went before.
  const history: ApiObject[] = [];
  for (const draft of drafts) {
    history.push({ role: 'user', content: draft.prompt });
    const start = [...history];
    const why = brokenBecause(draft, results);
    for (const turn of draft.turns) {
      history.push({ role: 'assistant', content: turn.message.content });
      const uses = toolUses(turn.message);
      if (uses.length > 0)
        history.push({ role: 'user', content: uses.map((u) => resultBlock(u.id, results.get(u.id))) });
    }
    // Claude Code's own words that the model did not answer (a command's output) are the conversation, not a loop.
    if (why !== undefined && !(draft.own && draft.turns.length === 0)) {
      session_.skipped.push({ prompt: firstLine(draft.prompt), why });
    }
    if (why !== undefined) continue;
    const outputs = Object.fromEntries(
      draft.turns.flatMap((t) => toolUses(t.message)).map((u) => [u.id, results.get(u.id)!]),
    );
    const loop: RecordedLoop = {
      request: {
        model: String(draft.turns[0]?.message.model ?? ''),
        max_tokens: CLAUDE_CODE_MAX_TOKENS,
        system: CLAUDE_CODE_SYSTEM,
        tools,
        messages: start,
      },
      turns: draft.turns,
      outputs,
      defaults: ['system', 'tools', 'max_tokens'],
      prompt: firstLine(draft.prompt),
      ...(draft.recorded === undefined ? {} : { recorded: draft.recorded }),
    };
    session_.loops.push(loop);
  }
  return session_;
}

// A turn is the blocks of one message id, in order; the last block's line holds the final usage.
function addBlocks(draft: Draft, line: Line, blocks: ApiObject[]): void {
  const message = line.message!;
  if (message.model === '<synthetic>') draft.synthetic = true;
  const last = draft.turns.at(-1);
  if (last !== undefined && last.message.id === message.id) {
    last.message.content.push(...blocks);
    if (message.usage !== undefined) last.message.usage = message.usage;
    return;
  }
  if (typeof line.timestamp === 'string') draft.recorded ??= line.timestamp;
  draft.turns.push({
    message: {
      id: String(message.id),
      type: 'message',
      role: 'assistant',
      model: String(message.model),
      content: [...blocks],
      stop_reason: null,
      stop_sequence: null,
      ...(message.usage === undefined ? {} : { usage: message.usage }),
    },
  });
}

// Why a loop cannot be replayed, or undefined when it can; its turns get their stop reasons on the way (Claude
// Code's lines record none): tool_use where the turn calls a tool, the recorded end (end_turn by default) last.
function brokenBecause(draft: Draft, results: Map<string, ScriptedOutput>): string | undefined {
  if (draft.synthetic) return 'Claude Code stood in for the model (an API error) in it';
  if (draft.turns.length === 0) return 'the model never answered it';
  if (draft.turns.every((t) => toolUses(t.message).length === 0))
    return 'the model called no tool in it: nothing of a loop to replay';
  if (draft.interrupted) return 'the user interrupted it before the model stopped';
  for (const [i, turn] of draft.turns.entries()) {
    const uses = toolUses(turn.message);
    const last = i === draft.turns.length - 1;
    if (uses.length > 0 && last) return 'it stops at a turn that calls a tool (the session ended there)';
    const missing = uses.find((u) => !results.has(u.id));
    if (missing !== undefined) return `tool_use ${missing.id} (${missing.name}) has no result`;
    const recorded = turn.message.stop_reason;
    turn.message.stop_reason =
      uses.length > 0 ? 'tool_use' : typeof recorded === 'string' && ENDS.has(recorded) ? recorded : 'end_turn';
    if (!last && uses.length === 0) return `turn ${i + 1} calls no tool, yet the model went on`;
  }
  return undefined;
}

// A tool_result's content as a ToolOutput's text (text blocks joined by newlines), is_error kept only when true.
function output(block: ApiObject): ScriptedOutput {
  const content = block.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .filter(isObject)
            .filter((b) => b.type === 'text')
            .map((b) => String(b.text))
            .join('\n')
        : '';
  return block.is_error === true ? { content: text, is_error: true } : { content: text };
}

// The tool_result the contract's loop sends for an output.
export function resultBlock(id: string, out: ScriptedOutput | undefined): ApiObject {
  if (out === undefined) return { type: 'tool_result', tool_use_id: id, content: '' };
  if ('throws' in out) return { type: 'tool_result', tool_use_id: id, content: out.throws, is_error: true };
  return {
    type: 'tool_result',
    tool_use_id: id,
    content: out.content,
    ...(out.is_error === true ? { is_error: true } : {}),
  };
}
