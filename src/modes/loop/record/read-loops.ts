// A recording read as loops, by its format: a live capture by its first line (the session line), an Anthropic API
// log by its first line (a request body, or a pair holding one), a Claude Code session otherwise (whose reader
// finds no loop in what is not one).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isLiveCaptureLine } from '../../../record/formats/live.ts';
import { readClaudeCodeLoops } from './claude-code-loops.ts';
import { isApiLogLine, readAnthropicLoops } from './anthropic-loops.ts';
import { readLiveLoops } from './live-loops.ts';
import { parseObject, type LoopSession } from './recorded-loop.ts';

// The formats loop cases are read from (`--format`).
export const LOOP_FORMATS = ['claude-code', 'live', 'anthropic'] as const satisfies readonly LoopSession['format'][];

const READERS: Record<LoopSession['format'], (file: string) => Promise<LoopSession>> = {
  'claude-code': readClaudeCodeLoops,
  live: readLiveLoops,
  anthropic: readAnthropicLoops,
};

// The loops of a recording, read as `format` says or as its content shows.
export async function readLoops(file: string, format?: LoopSession['format']): Promise<LoopSession> {
  return READERS[format ?? (await loopFormatOf(file))](file);
}

async function loopFormatOf(file: string): Promise<LoopSession['format']> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    for await (const text of lines) {
      if (text.trim() === '') continue;
      const first = parseObject(text);
      return isLiveCaptureLine(first) ? 'live' : isApiLogLine(first) ? 'anthropic' : 'claude-code';
    }
    return 'claude-code';
  } finally {
    lines.close();
  }
}
