// A request whose message holds the conversation's blocks with a field added to some of them, each block otherwise
// as the script has it: cache_control put on the last block for prompt caching, say. What the request shows is the
// field and where it is, not why: the hint names it as added to the message sent, and no more. Pure.
import { jsonEqual, short } from '../../../grade/judge/compare-results.ts';
import type { LoopHint } from './loop-features.ts';
import { blocks, firstDifferingMessage, hint, type LoopHintContext } from './loop-hint-context.ts';
import { isEntry } from './loop-results.ts';

const RULE =
  'send the messages as the conversation holds them, the blocks as the model and execute gave them, no field added';

export function blockFieldsAdded(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  if (ctx.at !== 'request' || d === undefined) return undefined;
  const e = d.e[d.i];
  const r = d.r[d.i];
  if (!isEntry(e) || !isEntry(r) || e.role !== r.role || !Array.isArray(e.content)) return undefined;
  const want = blocks(e);
  const got = blocks(r);
  if (want.length !== e.content.length || want.length !== got.length) return undefined;
  const kept = (w: (typeof want)[number], g: (typeof got)[number]) =>
    Object.keys(w).every((k) => k in g && jsonEqual(w[k], g[k]));
  if (!want.every((w, j) => kept(w, got[j]!))) return undefined;
  const added = got.flatMap((g, j) =>
    Object.keys(g)
      .filter((k) => !(k in want[j]!))
      .map((k) => ({ j, k, value: g[k], type: String(g.type) })),
  );
  const first = added[0];
  if (first === undefined) return undefined;
  const keys = [...new Set(added.map((a) => `\`${a.k}\``))].join(', ');
  const which =
    d.i === d.e.length - 1 ? `its last message (${String(e.role)})` : `message ${d.i + 1} (${String(e.role)})`;
  const where = `block ${first.j + 1} of ${got.length} (${first.type})`;
  return hint(
    `request ${ctx.index + 1} sends ${which} with \`${first.k}\` ${short(first.value)} added to ${where}, which the conversation does not have: ${RULE}`,
    'a field added to the blocks sent',
    'tool-turn',
    `the requests' messages carry ${keys} on a block, a field the conversation does not have: ${RULE}`,
  );
}
