// A streamed response saved as a transcript (raw SSE, or one event's JSON per line): the first event that shows
// its API decides how the stream is read. Anthropic events are rebuilt into Messages (anthropic-sse.ts); OpenAI
// Chat Completions chunks and Responses events go to those importers, which read streams as well as bodies.
import type { Skip, TranscriptFormat } from '../types.ts';
import { addMessages } from './anthropic.ts';
import { ANTHROPIC_EVENT_TYPES, MessageAssembler, STREAM_ENDED } from './anthropic-sse.ts';
import { CallBook } from './call-book.ts';
import type { JsonObject } from './json-values.ts';
import { LOOKED_FOR } from './looked-for.ts';
import type { LineParser, ParsedFile } from './parsed-file.ts';
import { SseFramer } from './sse-framer.ts';
import { classifyValue, HANDLERS, type ValueFormat, type ValueHandler } from './values.ts';

// Events held while none has shown the API yet.
const MAX_UNDECIDED = 1000;

export type SseParser = LineParser & { format(): TranscriptFormat };

// A parser for a stream file; `forced` reads it as that API.
export function createSseParser(file: string, forced?: ValueFormat): SseParser {
  const skipped: Skip[] = [];
  let anthropic: MessageAssembler | undefined;
  let openai: ValueHandler | undefined;
  let format: ValueFormat | undefined = forced;
  const undecided: Array<{ event: JsonObject; line: number }> = [];

  const take = (event: JsonObject, line: number): void => {
    if (anthropic !== undefined) anthropic.event(event, line);
    else if (openai !== undefined) openai.value(event, line);
    else {
      const shown =
        format ??
        (typeof event.type === 'string' && ANTHROPIC_EVENT_TYPES.has(event.type) ? 'anthropic' : classifyValue(event));
      if (shown === undefined) {
        if (undecided.length < MAX_UNDECIDED) undecided.push({ event, line });
        else skipped.push({ file, line, reason: 'an event of no recognisable API' });
        return;
      }
      format = shown;
      if (shown === 'anthropic') anthropic = new MessageAssembler(file, skipped);
      else openai = HANDLERS[shown](file);
      for (const held of undecided.splice(0)) take(held.event, held.line);
      take(event, line);
    }
  };
  const framer = new SseFramer(file, skipped, take);

  return {
    format: () => format ?? 'anthropic',
    line: (line) => framer.line(line),
    finish(): ParsedFile {
      framer.dispatch();
      if (openai !== undefined) {
        const done = openai.finish();
        return { ...done, skipped: [...skipped, ...done.skipped] };
      }
      if (anthropic === undefined && undecided.length > 0) {
        const count = undecided.length;
        return {
          calls: [],
          skipped,
          problem: {
            file,
            message: `no known transcript format: ${count} stream event${count === 1 ? '' : 's'}, none of them ${LOOKED_FOR}`,
          },
        };
      }
      const assembler = anthropic ?? new MessageAssembler(file, skipped);
      assembler.close(STREAM_ENDED);
      const book = new CallBook(skipped);
      addMessages(book, skipped, assembler.messages, {
        file,
        line: 1,
        lineOf: (block) => assembler.blockLines.get(block),
      });
      return { calls: book.finish(), skipped };
    },
  };
}
