// Which importer reads a file, decided from its first lines (or forced by --format). These shapes of text carry the
// formats: Claude Code's own JSONL, a Codex rollout, a Gemini session, a pi session, an SSE stream, JSONL of API
// values, one JSON document; plus the live capture.
import type { ImportProblem, TranscriptFormat } from '../types.ts';
import { ANTHROPIC_EVENT_TYPES } from './anthropic-sse.ts';
import { isClaudeCodeLine } from './claude-code.ts';
import { isCodexLine } from './codex.ts';
import { isGeminiRecord } from './gemini.ts';
import { isObject, parseJson } from './json-values.ts';
import { isLiveCaptureLine } from './live.ts';
import { isPiSessionLine } from './pi-session.ts';
import { isSseLine } from './sse-framer.ts';

// Every format `--format` accepts, in the order the docs list them.
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  'claude-code',
  'anthropic',
  'openai-chat',
  'openai-responses',
  'ai-sdk',
  'codex',
  'gemini',
  'pi',
  'live',
];

export type Shape = 'claude-code' | 'codex' | 'gemini' | 'pi' | 'sse' | 'json-lines' | 'json-document' | 'live';

export function isTranscriptFormat(value: unknown): value is TranscriptFormat {
  return typeof value === 'string' && (TRANSCRIPT_FORMATS as readonly string[]).includes(value);
}

// The problem for a --format value that names no format, listing the known ones.
export function unknownFormat(value: unknown, file: string): ImportProblem {
  return { file, message: `unknown format '${String(value)}': --format takes one of ${TRANSCRIPT_FORMATS.join(', ')}` };
}

// The shape of a file from its first non-empty lines, or undefined when it is none of the known ones.
export function detectShape(texts: string[]): Shape | undefined {
  const first = texts[0];
  if (first === undefined) return undefined;
  if (isSseLine(first.trimStart())) return 'sse';
  let values = 0;
  let firstIsValue = false;
  for (const [i, text] of texts.entries()) {
    const parsed = parseJson(text);
    if (!parsed.ok || (!isObject(parsed.value) && !Array.isArray(parsed.value))) continue;
    // A whole array on one line is a document: it may hold a line-based format's lines (json-array-lines.ts).
    if (texts.length === 1 && Array.isArray(parsed.value)) return 'json-document';
    values += 1;
    if (i === 0) firstIsValue = true;
    if (isLiveCaptureLine(parsed.value)) return 'live';
    if (isPiSessionLine(parsed.value)) return 'pi';
    if (isClaudeCodeLine(parsed.value)) return 'claude-code';
    if (isCodexLine(parsed.value)) return 'codex';
    if (isGeminiRecord(parsed.value)) return texts.length === 1 ? 'json-document' : 'gemini';
    if (isObject(parsed.value) && typeof parsed.value.type === 'string' && ANTHROPIC_EVENT_TYPES.has(parsed.value.type))
      return 'sse';
  }
  if (firstIsValue || values * 2 > texts.length) return 'json-lines';
  if (/^\s*[[{]/.test(first)) return 'json-document';
  return undefined;
}

// The shape to read a file in when --format forced the format.
export function shapeForFormat(format: TranscriptFormat, texts: string[]): Shape {
  if (format === 'claude-code' || format === 'codex' || format === 'pi' || format === 'live') return format;
  const shape = detectShape(texts);
  if (format === 'gemini') return shape === 'json-document' ? shape : 'gemini';
  return shape === 'sse' || shape === 'json-document' ? shape : 'json-lines';
}
