// A JSON array of a line-based format's lines, as transcript viewers export a session (a pretty-printed array of
// Claude Code lines, of a Codex rollout's, of a pi session's, of a live capture's): read as those lines, one element each; a Gemini
// CLI session document as its records. Any other document is read as API values (values.ts). The document is held whole, so it is capped as values.ts caps it.
import { detectShape, type Shape } from './detect-format.ts';
import { geminiDocumentRecords } from './gemini.ts';
import { isObject, parseJson } from './json-values.ts';
import type { LineParser, ParsedFile } from './parsed-file.ts';
import type { Line } from './read-lines.ts';
import { MAX_DOCUMENT_CHARS } from './values.ts';

// The shapes whose lines an array can hold.
const LINE_SHAPES: ReadonlySet<Shape> = new Set(['claude-code', 'codex', 'pi', 'live']);

// Reads a document: as the lines of a line-based format when it is an array of them (`linesAs` makes that
// format's parser, and the shape it names is the one read), else as `values` would.
export function createDocumentParser(values: () => LineParser, linesAs: (shape: Shape) => LineParser): LineParser {
  const held: Line[] = [];
  let chars = 0;
  let tooLong = false;
  return {
    line(line: Line): void {
      if ('tooLong' in line) tooLong = true;
      else if (!tooLong) {
        chars += line.text.length + 1;
        if (chars > MAX_DOCUMENT_CHARS) tooLong = true;
      }
      held.push(line);
    },
    finish(): ParsedFile {
      const lines = tooLong ? undefined : arrayLines(held.map((l) => ('text' in l ? l.text : '')).join('\n'));
      const parser = lines === undefined ? values() : linesAs(lines.shape);
      for (const line of lines?.lines ?? held) parser.line(line);
      held.length = 0;
      return parser.finish();
    },
  };
}

// The elements of an array document as lines (element N is line N), when they are a line-based format's lines;
// a whole Gemini session as its records, the session's own first.
function arrayLines(text: string): { shape: Shape; lines: Line[] } | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  const parsed = parseJson(text);
  if (!parsed.ok) return undefined;
  const records = geminiDocumentRecords(parsed.value);
  if (records !== undefined)
    return { shape: 'gemini', lines: records.map((r, i) => ({ line: i + 1, text: JSON.stringify(r) ?? 'null' })) };
  if (!Array.isArray(parsed.value) || !parsed.value.some(isObject)) return undefined;
  const texts = parsed.value.map((element) => JSON.stringify(element) ?? 'null');
  const shape = detectShape(texts.slice(0, 20));
  if (shape === undefined || !LINE_SHAPES.has(shape)) return undefined;
  return { shape, lines: texts.map((t, i) => ({ line: i + 1, text: t })) };
}
