// A recorded case's words and name: the `description` a student reads when it fails (which session, which tools,
// which files), the `source` a course author reads (format, transcript, session, when, the tool_use ids, the
// agent's own names and keys, where each seeded file came from), and the slug it is written under.
import { basename, dirname, extname } from 'node:path';
import type { DispatchCaseData } from '../../modes/dispatch/case.ts';
import { schemaOf } from '../../modes/mode-table.ts';
import type { ImportedTranscript } from '../types.ts';
import type { CaseDraft, MappedCall } from '../record-types.ts';
import { visibleText } from '../../grade/report/visible-text.ts';
import { sandboxRelative } from '../map/call-input.ts';
import { findSecrets } from '../map/secret-rules.ts';

const FORMAT_NAMES: Record<string, string> = {
  'claude-code': 'Claude Code session',
  anthropic: 'Anthropic Messages API transcript',
  'openai-chat': 'OpenAI Chat Completions transcript',
  'openai-responses': 'OpenAI Responses API transcript',
  'ai-sdk': 'AI SDK conversation',
  codex: 'Codex CLI session',
  gemini: 'Gemini CLI session',
  live: 'live recording',
};

// A base name that says nothing about the session: the directory holding it does (claude-reliability keeps each
// session as <story>/transcript.jsonl).
const GENERIC_NAMES = new Set(['transcript']);

// The default case name for a transcript: `recorded-` and the file's name (a session id's first 8 characters,
// the directory's name when the file's is generic), as a slug.
export function defaultName(transcript: ImportedTranscript): string {
  const file = transcript.files[0] ?? 'transcript';
  let base = basename(file, extname(file));
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(base)) base = base.slice(0, 8);
  else if (GENERIC_NAMES.has(base.toLowerCase())) base = basename(dirname(file)) || base;
  return recordedName(base);
}

// `recorded-` and a transcript's base name as a slug, or `recorded-session` when the base says nothing, or holds a
// secret (a token pasted into a file name would otherwise name the case, its file and the report).
export function recordedName(base: string): string {
  const named = findSecrets(base).length > 0 ? '' : slug(base);
  return `recorded-${named || 'session'}`;
}

// Kebab case: lower-case letters and digits joined by single hyphens, at most 48 characters.
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

// The case file for a draft, without its name.
export function caseFileFor(draft: CaseDraft, transcript: ImportedTranscript): DispatchCaseData {
  return {
    $schema: `../${schemaOf('dispatch')}`,
    description: describe(draft, transcript),
    ...(Object.keys(draft.files).length === 0 ? {} : { files: draft.files }),
    calls: draft.calls.map((m) => m.call),
    source: sourceOf(draft, transcript),
  };
}

// A recorded string as a student may read it in the description: its control characters, separators and
// bidirectional marks shown rather than acting (the grader's own rule, src/grade/report/visible-text.ts), on one line.
export function visibleLine(text: string): string {
  return visibleText(text).replace(/\n/g, '\u240a').replace(/\t/g, '\u2409');
}

function describe(draft: CaseDraft, transcript: ImportedTranscript): string {
  const who = FORMAT_NAMES[transcript.format] ?? transcript.format;
  const session = transcript.sessionId === undefined ? '' : `${transcript.sessionId.slice(0, 8)}; `;
  const agent = draft.agent === undefined ? '' : ` (a subagent's)`;
  const count = draft.calls.length;
  const files = [...new Set(draft.calls.map(fileOf).filter((f): f is string => f !== undefined && f !== ''))];
  const on =
    files.length === 0
      ? ''
      : `; files ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`;
  const calls = `${count} call${count === 1 ? '' : 's'}${agent}`;
  return visibleLine(
    `Replays ${calls} from a real ${who} (${session}${tally(draft.calls.map((m) => m.call.tool))}${on}); the reference reproduced every recorded result.`,
  );
}

function fileOf(mapped: MappedCall): string | undefined {
  const path = mapped.call.input.path;
  return typeof path === 'string' && mapped.check.kind !== 'bash' ? sandboxRelative(path, '') : undefined;
}

// `Read ×3, Edit, Bash ×2`: each tool once, in order of first use, with its count.
function tally(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n === 1 ? name : `${name} ×${n}`)).join(', ');
}

function sourceOf(draft: CaseDraft, transcript: ImportedTranscript): Record<string, unknown> {
  const first = draft.calls.find((m) => m.timestamp !== undefined)?.timestamp ?? transcript.startedAt;
  const calls = draft.calls
    .map((m) => ({
      m,
      same:
        m.originalTool === m.call.tool &&
        Object.entries(m.renamedKeys).every(([a, b]) => a === b) &&
        Object.keys(m.droppedKeys).length === 0,
    }))
    .filter(({ same }) => !same)
    .map(({ m }) => ({
      id: m.id,
      tool: m.originalTool,
      keys: m.renamedKeys,
      ...(Object.keys(m.droppedKeys).length === 0 ? {} : { original: m.droppedKeys }),
    }));
  return {
    format: transcript.format,
    transcript: basename(transcript.files[0] ?? ''),
    ...(transcript.sessionId === undefined ? {} : { session: transcript.sessionId }),
    ...(draft.agent === undefined ? {} : { agent: draft.agent }),
    ...(first === undefined ? {} : { recorded: first }),
    tool_use_ids: draft.calls.map((m) => m.id),
    ...(calls.length === 0 ? {} : { calls }),
    ...(Object.keys(draft.origins).length === 0 ? {} : { seeds: draft.origins }),
  };
}
