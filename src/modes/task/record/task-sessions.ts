// A Claude Code session read as delegate-task cases: each loop of the parent (claude-code-loops.ts) whose model
// called `Task` (or `Agent`, its later name), with each call's subagent beside it, its turns interleaved in the
// order the contract asks for them. A subagent's turns come from its own transcript: `<session>/subagents/
// agent-<id>.jsonl` beside the session's file, or the session's sidechain lines of that agent; which agent a call
// ran is the call's result's `agentId`, else the subagent whose prompt is the call's. A call whose subagent left no
// transcript has only its final answer (the result's `content`, Claude Code's record of the child's last text):
// the case's child then answers in one turn, and the case says so. Pure but for reading the files.
import { createReadStream, existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ApiObject, LoopTurn, ScriptedOutput } from '../../loop/case.ts';
import { claudeCodeTools } from '../../loop/record/claude-code-defaults.ts';
import { readClaudeCodeLoops, resultBlock } from '../../loop/record/claude-code-loops.ts';
import {
  isObject,
  type LoopSession,
  parseObject,
  type RecordedLoop,
  toolUses,
} from '../../loop/record/recorded-loop.ts';
import { SUBAGENT_MAX_ROUNDS, TASK_TOOL, TASK_TOOL_DEFINITION, type TaskCaseData } from '../case.ts';

// Claude Code's names for the tool that runs a subagent.
const TASK_NAMES = new Set(['Task', 'Agent']);

// A subagent as the recording has it: its prompt, and its turns and outputs, or its final text alone.
export type RecordedChild = {
  agentId?: string;
  prompt: string;
  turns: LoopTurn[];
  outputs: Record<string, ScriptedOutput>;
  // Where its turns came from: its transcript (a file, or the session's sidechain lines), or its final text alone.
  from: string;
  // The tool calls it made that the case does not hold (its final text alone), from the result's count.
  unrecordedCalls?: number;
};

// One case drawn from a parent loop.
export type TaskDraft = {
  name: string;
  data: TaskCaseData;
  children: RecordedChild[];
};

export type TaskSession = { session: LoopSession; drafts: TaskDraft[]; skipped: { prompt: string; why: string }[] };

type TaskResult = { agentId?: string; text?: ApiObject[]; calls?: number };

// Reads `file` and its subagents; each parent loop with task calls is one case from its start and, when its first
// task call is not in its first turn, one from that turn on (the conversation before it as the request's messages).
export async function readTaskSession(file: string, base: string): Promise<TaskSession> {
  const session = await readClaudeCodeLoops(file);
  const results = await taskResults(file);
  const children = await recordedChildren(file);
  const skipped: TaskSession['skipped'] = [];
  const drafts: TaskDraft[] = [];
  for (const loop of session.loops) {
    const calls = loop.turns.flatMap((t) => t.message.content.filter(isTaskCall));
    if (calls.length === 0) continue;
    const matched = calls.map((call) => childOf(call, results.get(String(call.id)), children));
    const missing = calls.find((_, k) => matched[k] === undefined);
    if (missing !== undefined) {
      skipped.push({
        prompt: loop.prompt,
        why: `task call ${String(missing.id)} has neither a subagent transcript nor a final answer`,
      });
      continue;
    }
    const kids = matched as RecordedChild[];
    const first = loop.turns.findIndex((t) => t.message.content.some(isTaskCall));
    const n = drafts.length;
    const name = (suffix: string) => `${base}${n === 0 ? '' : `-${String(n + 1).padStart(2, '0')}`}${suffix}`;
    drafts.push({ name: name(''), data: taskCase(loop, kids, 0), children: kids });
    if (first > 0) drafts.push({ name: name('-from-task'), data: taskCase(loop, kids, first), children: kids });
  }
  return { session, drafts, skipped };
}

function isTaskCall(block: ApiObject): boolean {
  return block.type === 'tool_use' && TASK_NAMES.has(String(block.name));
}

// A Task call as the stage's `task` call: its prompt and description, nothing of Claude Code's own (subagent_type).
function asTaskCall(block: ApiObject): ApiObject {
  const input = isObject(block.input) ? block.input : {};
  return {
    ...block,
    name: TASK_TOOL,
    input: {
      prompt: input.prompt,
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
    },
  };
}

const renameTasks = (content: ApiObject[]): ApiObject[] => content.map((b) => (isTaskCall(b) ? asTaskCall(b) : b));

// The case of `loop` from its turn `from` on: the parent's turns with each task call's child after its turn.
function taskCase(loop: RecordedLoop, children: RecordedChild[], from: number): TaskCaseData {
  const turns: LoopTurn[] = [];
  const outputs: Record<string, ScriptedOutput> = {};
  const history: ApiObject[] = loop.request.messages.map((m) =>
    Array.isArray(m.content) ? { ...m, content: renameTasks(m.content.filter(isObject)) } : m,
  );
  let child = 0;
  for (const [k, turn] of loop.turns.entries()) {
    const content = renameTasks(turn.message.content);
    const uses = toolUses(turn.message);
    if (k < from) {
      // Before the window: the conversation the request starts with, as the contract's loop would have sent it.
      history.push({ role: 'assistant', content });
      history.push({ role: 'user', content: uses.map((u) => resultBlock(u.id, loop.outputs[u.id])) });
      continue;
    }
    turns.push({ message: { ...turn.message, content } });
    for (const u of uses) if (!TASK_NAMES.has(u.name)) outputs[u.id] = loop.outputs[u.id]!;
    for (const _ of turn.message.content.filter(isTaskCall)) {
      const kid = children[child++]!;
      const kept = kid.turns.slice(0, SUBAGENT_MAX_ROUNDS);
      turns.push(...kept.map((t) => structuredClone(t)));
      // The tools of a child's last allowed round are never run: they have no output.
      const ran = kept.length === SUBAGENT_MAX_ROUNDS ? kept.slice(0, -1) : kept;
      for (const u of ran.flatMap((t) => toolUses(t.message))) outputs[u.id] = kid.outputs[u.id]!;
    }
  }
  const used = [
    ...loop.turns.flatMap((t) => toolUses(t.message).map((u) => u.name)),
    ...children.flatMap((c) => c.turns.flatMap((t) => toolUses(t.message).map((u) => u.name))),
  ].filter((name) => !TASK_NAMES.has(name));
  return {
    $schema: '../agent-loop.schema.json',
    description: '',
    request: { ...loop.request, tools: [...claudeCodeTools(used), TASK_TOOL_DEFINITION], messages: history },
    turns,
    outputs,
  };
}

// The subagent a call ran: by the agentId its result names, else by its prompt; else its final answer alone.
function childOf(
  call: ApiObject,
  result: TaskResult | undefined,
  children: RecordedChild[],
): RecordedChild | undefined {
  const prompt = isObject(call.input) ? call.input.prompt : undefined;
  const byId = result?.agentId === undefined ? undefined : children.find((c) => c.agentId === result.agentId);
  const found = byId ?? children.find((c) => c.prompt === prompt);
  if (found !== undefined) return found;
  if (result?.text === undefined || typeof prompt !== 'string') return undefined;
  const id = `msg_task_${String(call.id).replace(/^toolu_/, '')}`;
  return {
    ...(result.agentId === undefined ? {} : { agentId: result.agentId }),
    prompt,
    turns: [
      {
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: 'recorded',
          content: result.text,
          stop_reason: 'end_turn',
          stop_sequence: null,
          // The API sends a usage with every message; a streaming loop's SDK reads it off message_start.
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
    ],
    outputs: {},
    from: "its final text alone (the call's recorded result); its own turns are not in the recording",
    ...(result.calls === undefined ? {} : { unrecordedCalls: result.calls }),
  };
}

// What Claude Code recorded of each Task call's end, by tool_use id: the agent it ran, its final text blocks, and how
// many tool calls it made (the user line's `toolUseResult`).
async function taskResults(file: string): Promise<Map<string, TaskResult>> {
  const found = new Map<string, TaskResult>();
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const line = parseObject(text);
    const result = line?.toolUseResult;
    const message = line?.message;
    if (!isObject(result) || !isObject(message) || !Array.isArray(message.content)) continue;
    const block = message.content.find((b) => isObject(b) && b.type === 'tool_result');
    if (!isObject(block)) continue;
    const texts = Array.isArray(result.content)
      ? result.content.filter((b): b is ApiObject => isObject(b) && b.type === 'text' && typeof b.text === 'string')
      : undefined;
    if (typeof result.agentId !== 'string' && texts === undefined) continue;
    found.set(String(block.tool_use_id), {
      ...(typeof result.agentId === 'string' ? { agentId: result.agentId } : {}),
      ...(texts === undefined || texts.length === 0
        ? {}
        : { text: texts.map((b) => ({ type: 'text', text: b.text })) }),
      ...(typeof result.totalToolUseCount === 'number' ? { calls: result.totalToolUseCount } : {}),
    });
  }
  return found;
}

// Every subagent with a transcript: the files of the `subagents/` folder beside the session (compaction's agents
// left out: they are no task's), then the agents of the session's own sidechain lines.
async function recordedChildren(file: string): Promise<RecordedChild[]> {
  const folder = join(dirname(file), basename(file).replace(/\.jsonl$/, ''), 'subagents');
  const files = existsSync(folder)
    ? (await readdir(folder)).filter((f) => /^agent-.*\.jsonl$/.test(f) && !f.startsWith('agent-acompact')).sort()
    : [];
  const children: RecordedChild[] = [];
  for (const f of files) {
    const child = await childFrom(join(folder, f), true, `subagents/${f}`);
    if (child !== undefined) children.push({ agentId: f.replace(/^agent-|\.jsonl$/g, ''), ...child });
  }
  for (const agentId of await sidechainAgents(file)) {
    const child = await childFrom(file, agentId, `the session's sidechain lines of agent ${agentId}`);
    if (child !== undefined) children.push({ agentId, ...child });
  }
  return children;
}

async function childFrom(file: string, sidechain: true | string, from: string): Promise<RecordedChild | undefined> {
  const read = await readClaudeCodeLoops(file, { sidechain });
  const loop = read.loops[0];
  if (loop === undefined) return undefined;
  const first = loop.request.messages[0];
  const prompt = isObject(first) && typeof first.content === 'string' ? first.content : loop.prompt;
  return { prompt, turns: loop.turns, outputs: loop.outputs, from };
}

async function sidechainAgents(file: string): Promise<string[]> {
  const agents = new Set<string>();
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!text.includes('"isSidechain":true') && !text.includes('"isSidechain": true')) continue;
    const line = parseObject(text);
    if (line?.isSidechain === true && typeof line.agentId === 'string') agents.add(line.agentId);
  }
  return [...agents];
}
