// A recorded session's loops as compact-context cases (`theinference record --stage compact-context`):
// - every loop the loop recorder keeps, with a threshold no conversation of it can pass: its turns grade
//   micro-compaction over a real session's results, before every request;
// - every compaction Claude Code made (a `compact_boundary` line, then the `isCompactSummary` user message holding
//   the summary), as a case that compacts before its first request: the conversation up to the boundary is the
//   request's, the model's summary is the turn that answers the summary request, and the loop after the boundary
//   gives the turns after it. Its threshold lies between the smallest the conversation before can be and the
//   largest the one after can grow to, so the reference compacts there and only there.
// Each case's `source` says where its turns came from. Pure but for reading the transcript once.
import { readFile } from 'node:fs/promises';
import {
  ACKNOWLEDGEMENT,
  CHARS_PER_TOKEN,
  COMPRESSED_MARKER,
  KEEP_RECENT_RESULTS,
  PLACEHOLDER_OVER_CHARS,
  placeholder,
  UNKNOWN_TOOL,
} from '../../../compact-contract.ts';
import { schemaOf } from '../../mode-table.ts';
import type { ApiObject, LoopTurn } from '../../loop/case.ts';
import type { LoopCaseDraft } from '../../loop/record/loop-cases.ts';
import type { LoopSession } from '../../loop/record/recorded-loop.ts';
import type { CompactCaseData } from '../case.ts';

// Claude Code's words around the model's summary in the isCompactSummary message, not the model's.
const PREFACE = /^This session is being continued from a previous conversation[^\n]*\n+/;
const AFTERWORD =
  /\n(If you need specific details from before compaction|Please continue the conversation from where)[\s\S]*$/;

// A compaction as the transcript holds it: the summary message's text and the boundary's metadata.
export type RecordedCompaction = { summary: string; trigger?: string; preTokens?: number; line: number };

export async function recordedCompactions(file: string): Promise<RecordedCompaction[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const found: RecordedCompaction[] = [];
  let boundary: { trigger?: string; preTokens?: number } | undefined;
  for (const [i, text] of lines.entries()) {
    let line: ApiObject;
    try {
      line = JSON.parse(text) as ApiObject;
    } catch {
      continue;
    }
    if (line.isSidechain === true) continue;
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      const meta = (line.compactMetadata ?? {}) as ApiObject;
      boundary = {
        ...(typeof meta.trigger === 'string' ? { trigger: meta.trigger } : {}),
        ...(typeof meta.preTokens === 'number' ? { preTokens: meta.preTokens } : {}),
      };
    } else if (line.type === 'user' && line.isCompactSummary === true && boundary !== undefined) {
      const content = (line.message as ApiObject | undefined)?.content;
      const text_ = typeof content === 'string' ? content : Array.isArray(content) ? textOf(content) : '';
      found.push({ summary: text_, ...boundary, line: i + 1 });
      boundary = undefined;
    }
  }
  return found;
}

function textOf(blocks: unknown[]): string {
  return blocks
    .filter((b): b is ApiObject => b !== null && typeof b === 'object' && (b as ApiObject).type === 'text')
    .map((b) => String(b.text))
    .join('\n');
}

// The model's summary inside Claude Code's message.
export function modelSummary(message: string): string {
  return message.replace(PREFACE, '').replace(AFTERWORD, '').trim();
}

const estimate = (value: unknown): number => JSON.stringify(value).length / CHARS_PER_TOKEN;

// A threshold no conversation of the case can pass: every message, turn and output whole, twice over.
export function neverReached(data: { request: { messages: unknown[] }; turns: LoopTurn[]; outputs?: unknown }): number {
  return Math.ceil(estimate([data.request.messages, data.turns, data.outputs ?? {}]) * 2);
}

// The loop cases as micro-compaction cases, and one case per recorded compaction whose loop after it was kept.
export function compactCases(
  session: LoopSession,
  drafts: LoopCaseDraft[],
  compactions: RecordedCompaction[],
  redact: (text: string) => string,
): { drafts: LoopCaseDraft[]; skipped: { prompt: string; why: string }[] } {
  const micro = drafts.map((d) => ({ ...d, data: microCase(d.data as CompactCaseData) }));
  const skipped: { prompt: string; why: string }[] = [];
  const compacted: LoopCaseDraft[] = [];
  for (const [i, c] of compactions.entries()) {
    const summary = redact(modelSummary(c.summary));
    // The loop Claude Code went on with after the boundary is the one its summary message started.
    const at = drafts.findIndex((d) => {
      const last = d.data.request.messages.at(-1);
      return last !== undefined && last.role === 'user' && last.content === redact(c.summary);
    });
    const after = drafts[at];
    if (after === undefined) {
      skipped.push({ prompt: `compaction at line ${c.line}`, why: 'the loop after it was not kept as a case' });
      continue;
    }
    const made = compactionCase(after, summary, c, session);
    if (typeof made === 'string') skipped.push({ prompt: `compaction at line ${c.line}`, why: made });
    else
      compacted.push({
        ...after,
        name: `${after.name.replace(/-\d\d$/, '')}-compaction${compactions.length > 1 ? `-${i + 1}` : ''}`,
        data: made,
        differs: [],
      });
  }
  return { drafts: [...micro, ...compacted], skipped };
}

function microCase(data: CompactCaseData): CompactCaseData {
  return {
    ...data,
    $schema: `../${schemaOf('compact')}`,
    description: `${data.description.replace(/: every request carries.*$/, '')}: before every request, every tool_result but the three most recent, when longer than 100 characters, is sent as its placeholder; the threshold is never reached.`,
    request: { ...data.request, compact_threshold: neverReached(data) },
  };
}

// The case that compacts before its first request, or why the recording cannot give one.
function compactionCase(
  after: LoopCaseDraft,
  summary: string,
  c: RecordedCompaction,
  session: LoopSession,
): CompactCaseData | string {
  const before = after.data.request.messages.slice(0, -1);
  if (before.length === 0) return 'nothing of the conversation before it was recorded';
  const last = after.data.turns.at(0)?.message;
  const summaryTurn: LoopTurn = {
    message: {
      id: `msg_summary_${String(c.line).padStart(6, '0')}`,
      type: 'message',
      role: 'assistant',
      model: String(last?.model ?? after.data.request.model),
      content: [{ type: 'text', text: summary }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      // The API sends a usage with every message; a streaming loop's SDK reads it off message_start.
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  };
  // The conversation before, as the loop weighs it before its first request, must be past the threshold; every
  // conversation after the compaction, before each later request, must not be.
  const weighs = estimate(microCompacted(before));
  let after_: ApiObject[] = [
    { role: 'user', content: `${COMPRESSED_MARKER}\n\n${summary}` },
    { role: 'assistant', content: ACKNOWLEDGEMENT },
  ];
  let most = 0;
  for (const turn of after.data.turns) {
    after_ = microCompacted(after_);
    most = Math.max(most, estimate(after_));
    after_.push({ role: 'assistant', content: turn.message.content });
    const uses = turn.message.content.filter((b) => b.type === 'tool_use');
    const outputs = (after.data.outputs ?? {}) as Record<
      string,
      { content?: string; throws?: string; is_error?: boolean }
    >;
    if (uses.length > 0)
      after_.push({
        role: 'user',
        content: uses.map((u) => {
          const o = outputs[String(u.id)] ?? {};
          return {
            type: 'tool_result',
            tool_use_id: u.id,
            content: o.content ?? o.throws ?? '',
            ...(o.is_error === true || o.throws !== undefined ? { is_error: true } : {}),
          };
        }),
      });
  }
  if (weighs <= most + 1)
    return `the conversation before it (${Math.round(weighs)} tokens by the estimate) is not larger than the one after it grows to (${Math.round(most)})`;
  const data = after.data as CompactCaseData;
  const source = {
    ...(data.source ?? {}),
    compaction: {
      line: c.line,
      ...(c.trigger === undefined ? {} : { trigger: c.trigger }),
      ...(c.preTokens === undefined ? {} : { preTokens: c.preTokens }),
    },
    summary: "the model's summary from the isCompactSummary message, Claude Code's preface and afterword taken off",
  };
  return {
    ...data,
    $schema: `../${schemaOf('compact')}`,
    description: `Replays a real compaction of a ${session.format === 'claude-code' ? 'Claude Code session' : 'session'}: the conversation up to the recorded compact boundary passes the threshold, so the loop writes the transcript, asks for the summary (the model's own, recorded) and goes on from [Compressed] and the acknowledgement with the ${after.data.turns.length} turns recorded after it.`,
    request: { ...data.request, messages: before, compact_threshold: Math.floor((weighs + most) / 2) },
    turns: [summaryTurn, ...data.turns],
    source,
  };
}

// The conversation as micro-compaction leaves it (docs/stages/compact-context.md), the recorder's own reading of the
// rule, to place a threshold: the snapshot is the reference's, and a case where they disagree fails to snapshot.
function microCompacted(messages: ApiObject[]): ApiObject[] {
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as ApiObject[]) : []));
  const names = new Map(blocks.filter((b) => b.type === 'tool_use').map((b) => [String(b.id), String(b.name)]));
  let older = blocks.filter((b) => b.type === 'tool_result').length - KEEP_RECENT_RESULTS;
  return messages.map((m) => {
    if (!Array.isArray(m.content)) return m;
    return {
      ...m,
      content: (m.content as ApiObject[]).map((b) => {
        if (b.type !== 'tool_result' || older-- <= 0) return b;
        if (typeof b.content !== 'string' || b.content.length <= PLACEHOLDER_OVER_CHARS) return b;
        return { ...b, content: placeholder(names.get(String(b.tool_use_id)) ?? UNKNOWN_TOOL) };
      }),
    };
  });
}
