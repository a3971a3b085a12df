// What a loop hint reads: where a loop first went another way than the script, and the helpers every recogniser
// shares to look at the messages there. Pure.
import type { LoopCaseData } from '../case.ts';
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import type { Feature, LoopHint } from './loop-features.ts';
import type { LoopWords } from './loop-words.ts';
import { isEntry, returnedOf } from './loop-results.ts';

// Where the loop first differs: request `index` (0-based) differs, is one the script does not have (`extra`) or was
// never sent (`missing`); or the end (`end`). `expected`, `received`: what differs there (the requests' differing
// fields, or the ends). `end`: how the loop ended. `sent`: every request the loop sent, whole. `words`: how the
// stage names the student's loop, its file and its page.
export type LoopHintContext = {
  data: LoopCaseData;
  words: LoopWords;
  at: 'request' | 'extra' | 'missing' | 'end';
  index: number;
  expected: unknown;
  received: unknown;
  end: unknown;
  sent?: unknown[];
};

export type Json = Record<string, unknown>;
export type Recogniser = (ctx: LoopHintContext) => LoopHint | undefined;

export const blocks = (message: unknown): Json[] =>
  isEntry(message) && Array.isArray(message.content) ? message.content.filter(isEntry) : [];
export const role = (message: unknown) => (isEntry(message) ? message.role : undefined);
export const hint = (text: string, cause: string, shows?: Feature, general?: string): LoopHint => ({
  text,
  cause,
  ...(shows === undefined ? {} : { shows }),
  ...(general === undefined ? {} : { general }),
});

// The two conversations at the difference: a request's messages, or the returned ones.
function conversations(ctx: LoopHintContext): [unknown[], unknown[]] | undefined {
  if (ctx.at === 'request' && isEntry(ctx.expected) && isEntry(ctx.received)) {
    const { messages: e } = ctx.expected;
    const { messages: r } = ctx.received;
    return Array.isArray(e) && Array.isArray(r) ? [e, r] : undefined;
  }
  const e = ctx.at === 'end' ? returnedOf(ctx.expected) : undefined;
  const r = ctx.at === 'end' ? returnedOf(ctx.received) : undefined;
  return e !== undefined && r !== undefined ? [e, r] : undefined;
}

// The first message that differs, its index, both sides, and the turn (from 1) an assistant message there is.
export function firstDifferingMessage(ctx: LoopHintContext) {
  const both = conversations(ctx);
  if (both === undefined) return undefined;
  const [e, r] = both;
  const i = e.findIndex((m, k) => !jsonEqual(m, r[k]));
  if (i === -1) return { e, r, i: e.length, turn: 0 };
  const start = ctx.data.request.messages.length;
  return { e, r, i, turn: Math.floor((i - start) / 2) + 1 };
}
