// Server-sent events, framed: each `data:` payload (several data lines joined by newlines, ended by a blank line)
// is one event; a bare JSON line is one event too (how SDK fixtures store a stream). `event:`, `id:`, `retry:` and
// comment lines carry nothing the importers need; `[DONE]` ends OpenAI streams.
import type { Skip } from '../types.ts';
import { isObject, type JsonObject, parseJson } from './json-values.ts';
import { tooLongSkip } from './parsed-file.ts';
import type { Line } from './read-lines.ts';

const SSE_FIELD = /^(event|data|id|retry):/;

// Whether a line starts an SSE stream (a field or a comment).
export function isSseLine(text: string): boolean {
  return SSE_FIELD.test(text) || text.startsWith(':');
}

export class SseFramer {
  private data: string[] = [];
  private dataLine = 0;

  constructor(
    private readonly file: string,
    private readonly skipped: Skip[],
    private readonly onEvent: (event: JsonObject, line: number) => void,
  ) {}

  line(line: Line): void {
    if ('tooLong' in line) {
      this.skipped.push(tooLongSkip(this.file, line));
      return;
    }
    const text = line.text;
    if (text.trim() === '') this.dispatch();
    else if (text.startsWith('data:')) {
      if (this.data.length === 0) this.dataLine = line.line;
      this.data.push(text.slice(text.startsWith('data: ') ? 6 : 5));
    } else if (isSseLine(text)) return;
    else if (this.data.length === 0 && text.trimStart().startsWith('{')) {
      this.dataLine = line.line;
      this.data.push(text);
      this.dispatch();
    } else this.skipped.push({ file: this.file, line: line.line, reason: 'not an SSE field or a JSON event' });
  }

  // Sends the pending event, if any (at a blank line, and once at the end of the stream).
  dispatch(): void {
    if (this.data.length === 0) return;
    const payload = this.data.join('\n');
    this.data = [];
    if (payload.trim() === '[DONE]') return;
    const parsed = parseJson(payload);
    if (!parsed.ok)
      this.skipped.push({
        file: this.file,
        line: this.dataLine,
        reason: `event data is not valid JSON (${parsed.error})`,
      });
    else if (!isObject(parsed.value))
      this.skipped.push({ file: this.file, line: this.dataLine, reason: 'event data is not a JSON object' });
    else this.onEvent(parsed.value, this.dataLine);
  }
}
