// Reads one file's lines into the importer its first lines call for (or the one --format forced): the lines are
// held until the shape is clear (at most a few), then streamed through.
import type { ImportProblem, TranscriptFormat } from '../types.ts';
import { createClaudeCodeParser } from './claude-code.ts';
import { createCodexParser } from './codex.ts';
import { createGeminiParser } from './gemini.ts';
import { detectShape, type Shape, shapeForFormat } from './detect-format.ts';
import { createDocumentParser } from './json-array-lines.ts';
import { createLiveParser } from './live.ts';
import { LOOKED_FOR } from './looked-for.ts';
import { createPiSessionParser } from './pi-session.ts';
import { parseJson } from './json-values.ts';
import { recogniseUnreadStream } from './unsupported-formats.ts';
import type { LineParser, ParsedFile } from './parsed-file.ts';
import type { Line } from './read-lines.ts';
import { createSseParser, type SseParser } from './sse-stream.ts';
import { createValuesParser, type ValueFormat, type ValuesParser } from './values.ts';

// Lines held before deciding: enough to see past a damaged first line, few enough to hold.
const DETECT_LINES = 20;
const DETECT_CHARS = 4 * 1024 * 1024;

// `forced`: read as --format said, not as detected.
export type ReadFile = { format: TranscriptFormat; parsed: ParsedFile; forced: boolean };

export class TranscriptReader {
  private parser: LineParser | undefined;
  private format: TranscriptFormat | undefined;
  private values: ValuesParser | SseParser | undefined;
  private held: Line[] = [];
  private heldTexts: string[] = [];
  private heldChars = 0;
  private problem: ImportProblem | undefined;

  constructor(
    private readonly file: string,
    private readonly forced?: TranscriptFormat,
  ) {}

  line(line: Line): void {
    if (this.problem !== undefined) return;
    if (this.parser !== undefined) {
      this.parser.line(line);
      return;
    }
    this.held.push(line);
    if ('text' in line && line.text.trim() !== '') {
      this.heldTexts.push(line.text);
      this.heldChars += line.text.length;
    }
    if (this.heldTexts.length >= DETECT_LINES || this.heldChars >= DETECT_CHARS) this.decide();
  }

  // The file's calls, or why the file cannot be used.
  finish(): ReadFile | ImportProblem {
    if (this.parser === undefined && this.problem === undefined) this.decide();
    if (this.problem !== undefined) return this.problem;
    const parsed = (this.parser as LineParser).finish();
    if (parsed.problem !== undefined) return parsed.problem;
    const format = this.values?.format() ?? this.format ?? 'anthropic';
    return { format, parsed, forced: this.forced !== undefined };
  }

  private decide(): void {
    if (this.heldTexts.length === 0) {
      const long = this.held.find((l) => 'tooLong' in l);
      this.problem =
        long === undefined
          ? { file: this.file, message: this.held.length === 0 ? 'empty file' : 'empty file: only blank lines' }
          : {
              file: this.file,
              line: long.line,
              message: `line ${long.line} is over the limit of one line, and no other line has content`,
            };
      return;
    }
    // An agent's event stream no importer reads is named before its lines can pass for another format's.
    const unread = this.forced === undefined ? this.unreadStream() : undefined;
    if (unread !== undefined) {
      this.problem = { file: this.file, line: unread.line, message: unread.message };
      return;
    }
    const shape = this.forced !== undefined ? shapeForFormat(this.forced, this.heldTexts) : detectShape(this.heldTexts);
    if (shape === undefined) {
      const firstLine = this.held.find((l) => 'text' in l && l.text.trim() !== '')?.line ?? 1;
      this.problem = {
        file: this.file,
        line: firstLine,
        message: `no known transcript format: line ${firstLine} is neither JSON nor an SSE stream; looked for ${LOOKED_FOR}. Use --format to force one.`,
      };
      return;
    }
    this.parser = this.parserFor(shape);
    for (const held of this.held) this.parser.line(held);
    this.held = [];
    this.heldTexts = [];
  }

  // The first held line that shows an unread event stream, and what it is.
  private unreadStream(): { line: number; message: string } | undefined {
    for (const held of this.held) {
      if (!('text' in held)) continue;
      const parsed = parseJson(held.text);
      const message = parsed.ok ? recogniseUnreadStream(parsed.value) : undefined;
      if (message !== undefined) return { line: held.line, message };
    }
    return undefined;
  }

  private parserFor(shape: Shape): LineParser {
    const forcedValues =
      this.forced === 'anthropic' ||
      this.forced === 'openai-chat' ||
      this.forced === 'openai-responses' ||
      this.forced === 'ai-sdk'
        ? (this.forced as ValueFormat)
        : undefined;
    switch (shape) {
      case 'claude-code':
        this.format = 'claude-code';
        return createClaudeCodeParser(this.file);
      case 'codex':
        this.format = 'codex';
        return createCodexParser(this.file);
      case 'gemini':
        this.format = 'gemini';
        return createGeminiParser(this.file);
      case 'pi':
        this.format = 'pi';
        return createPiSessionParser(this.file);
      case 'live':
        this.format = 'live';
        return createLiveParser(this.file);
      case 'sse':
        this.values = createSseParser(this.file, forcedValues);
        return this.values;
      case 'json-lines':
        this.values = createValuesParser(this.file, 'lines', forcedValues);
        return this.values;
      case 'json-document':
        if (forcedValues !== undefined) {
          this.values = createValuesParser(this.file, 'document', forcedValues);
          return this.values;
        }
        return createDocumentParser(
          () => {
            this.values = createValuesParser(this.file, 'document');
            return this.values;
          },
          (lines) => this.parserFor(lines),
        );
    }
  }
}
