// Hand-made imported calls and transcripts for the recording pipeline's tests: what an importer would give for a
// Claude Code session in /home/ada/proj (the machine's user `ada`), one call per row of a table.
import type { ImportedCall, ImportedResult, ImportedTranscript } from '../../src/record/types.ts';

// The session's directory in these tests.
export const CWD = '/home/ada/proj';

let next = 0;

// A call with its recorded result (a success when `isError` is not given).
export function call(
  name: string,
  input: Record<string, unknown> | undefined,
  result?: string | Partial<ImportedResult>,
  extra: Partial<ImportedCall> = {},
): ImportedCall {
  next += 1;
  const recorded: ImportedResult | undefined =
    result === undefined
      ? undefined
      : typeof result === 'string'
        ? { content: result, isError: false, line: next }
        : { content: '', isError: false, line: next, ...result };
  return {
    id: `toolu_${String(next).padStart(4, '0')}`,
    name,
    ...(input === undefined ? {} : { input }),
    ...(recorded === undefined ? {} : { result: recorded }),
    cwd: CWD,
    file: 'session.jsonl',
    line: next,
    timestamp: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

// A transcript of these calls.
export function transcript(calls: ImportedCall[], extra: Partial<ImportedTranscript> = {}): ImportedTranscript {
  return {
    format: 'claude-code',
    files: ['session.jsonl'],
    sessionId: '0123abcd-0000-4000-8000-000000000000',
    cwd: CWD,
    calls,
    skipped: [],
    ...extra,
  };
}

// Claude Code's Read result for a text: `     N→line` for every line (a final newline shows a last, empty one),
// the malware reminder after it, and the toolUseResult beside it.
export function claudeRead(
  path: string,
  text: string,
  range?: { from: number; count: number },
): Partial<ImportedResult> {
  const all = text.split('\n');
  const from = range?.from ?? 1;
  const shown = all.slice(from - 1, range === undefined ? undefined : from - 1 + range.count);
  const numbered = shown.map((line, i) => `${String(from + i).padStart(6)}→${line}`).join('\n');
  return {
    content: `${numbered}\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware.\n</system-reminder>\n`,
    details: {
      type: 'text',
      file: {
        filePath: path,
        content: shown.join('\n'),
        numLines: shown.length,
        startLine: from,
        totalLines: all.length,
      },
    },
  };
}
