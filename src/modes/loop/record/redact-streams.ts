// A loop case's recorded streams, after the redactor went over their text. The redactor sees a stream as text, so a
// string the model sent in pieces (an e-mail address split over two text deltas) passes it whole and would still be
// served to the loop under test. A stream is kept only when the message its redacted bytes build (as the real SDK
// builds it) is the redacted message its recorded bytes build; otherwise it is dropped, and the turn is served as
// events made from its redacted message, which a streaming loop receives as the same turn.
import { isDeepStrictEqual } from 'node:util';
import type { LoopCaseData } from '../case.ts';
import { mapStrings } from '../../../record/map/prepare-steps.ts';
import { streamedMessage } from './live-loops.ts';

// The redacted case with every unfaithful stream dropped, and the turns (0-based) whose stream was.
export async function keepFaithfulStreams(
  recorded: LoopCaseData,
  redacted: LoopCaseData,
  redact: (text: string) => string,
): Promise<{ data: LoopCaseData; dropped: number[] }> {
  const dropped: number[] = [];
  const turns = await Promise.all(
    redacted.turns.map(async (turn, i) => {
      const before = recorded.turns[i]?.stream;
      // A stream the redactor left as it was may be the one that holds a string in pieces: each is checked.
      if (turn.stream === undefined || before === undefined) return turn;
      const built = await streamedMessage(turn.stream).catch(() => undefined);
      const expected = await streamedMessage(before).then(
        (m) => mapStrings(m, redact),
        () => undefined,
      );
      if (built !== undefined && isDeepStrictEqual(built, expected)) return turn;
      dropped.push(i);
      const { stream: _, ...rest } = turn;
      return rest;
    }),
  );
  return { data: { ...redacted, turns }, dropped: dropped.sort((a, b) => a - b) };
}
