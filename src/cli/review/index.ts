// `theinference snapshot --stage <slug> --review`: walks the pending snapshots one by one. This file only wires
// the pieces: the state machine (review-loop.ts) decides, and this carries out its effects with the snapshot
// files, stdin (raw keys on a terminal, lines from a pipe: watch mode's key-input.ts) and stdout.
import { acceptPending, rejectPending } from '../../course/snapshot-file.ts';
import { readKeys, type KeyInput, type KeyInputEvent } from '../watch/key-input.ts';
import { useColor, type CommandIo, type Outcome } from '../commands/io.ts';
import { eventQueue } from '../event-queue.ts';
import { reviewItems } from './review-items.ts';
import { reviewActionForKey, reviewActionForLine } from './review-keys.ts';
import {
  initialReview,
  REVIEW_EXIT,
  step,
  type ReviewEffect,
  type ReviewEvent,
  type ReviewState,
} from './review-loop.ts';
import { renderDecision, renderItem, renderMenu, renderNotice, renderSummary, type Layout } from './review-screen.ts';

// Which snapshots to review: a stage's, of the cases `only` names or globs when given.
export type ReviewRequest = { root: string; stage: string; only: string[] };

const OUTCOMES: Record<number, Outcome> = {
  [REVIEW_EXIT.decided]: 'pass',
  [REVIEW_EXIT.left]: 'fail',
  [REVIEW_EXIT.failed]: 'misuse',
  [REVIEW_EXIT.interrupted]: 'interrupted',
};

// Reviews until every pending snapshot is decided, `q`, the end of piped input, or Ctrl-C: 'pass' when none is
// left pending, 'fail' when some are, 'interrupted' on Ctrl-C.
export async function reviewPending(request: ReviewRequest, io: CommandIo): Promise<Outcome> {
  const color = useColor(io);
  const items = await reviewItems(request.root, request.stage, request.only, color);
  const out = io.stdout as CommandIo['stdout'] & { columns?: number; rows?: number };
  const tty = out.isTTY === true;
  // Read at every snapshot shown: the terminal may have been resized meanwhile.
  const layout = (): Layout & { tty: boolean } =>
    tty ? { tty, color, columns: out.columns ?? 80, rows: out.rows ?? 24 } : { tty, color };
  const write = (text: string): void => void io.stdout.write(text);

  let keys: KeyInput | undefined;
  let finish: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => (finish = resolve));

  const perform = (effect: ReviewEffect): void => {
    const at = (index: number) => ({ index, total: items.length });
    switch (effect.type) {
      case 'show-item':
        return write(`${renderItem(items[effect.index]!, at(effect.index), layout())}${renderMenu(layout())}`);
      case 'show-whole-diff':
        return write(
          `${tty ? '\n' : ''}${renderItem(items[effect.index]!, at(effect.index), layout(), true)}${renderMenu(layout())}`,
        );
      case 'apply': {
        const carry = effect.decision === 'accepted' ? acceptPending : rejectPending;
        carry(request.root, request.stage, effect.name).then(
          () => dispatch({ type: 'applied' }),
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            dispatch({
              type: 'apply-failed',
              message: `could not carry out the decision on ${effect.name}: ${message}`,
            });
          },
        );
        return;
      }
      case 'show-decision':
        return write(renderDecision(effect.name, effect.decision, layout()));
      case 'show-notice':
        return write(`${renderNotice('notice', effect.message, layout())}${renderMenu(layout())}`);
      case 'show-error':
        return write(renderNotice('error', effect.message, layout()));
      case 'show-summary':
        return write(renderSummary(effect.decisions, effect.left, request.stage, items.length));
      case 'exit':
        return finish(effect.code);
    }
  };

  const { dispatch } = eventQueue<ReviewState, ReviewEvent, ReviewEffect>(
    initialReview(items.map((i) => i.name)),
    step,
    (effect) => perform(effect),
  );
  const onKeyInput = (event: KeyInputEvent): void => {
    const action = event.kind === 'key' ? reviewActionForKey(event.key) : reviewActionForLine(event.line);
    dispatch({ type: 'key', action });
  };
  // Piped stdin that ends leaves what was not decided pending, as q does.
  const onEnd = (): void => dispatch({ type: 'key', action: { type: 'quit' } });
  // The CLI aborts io.signal on SIGINT/SIGTERM/SIGHUP (piped stdin never sees Ctrl-C as a key).
  const onAbort = (): void => dispatch({ type: 'key', action: { type: 'interrupt' } });

  try {
    if (items.length > 0) {
      keys = readKeys(io.stdin, onKeyInput);
      io.stdin.once('end', onEnd);
    }
    io.signal?.addEventListener('abort', onAbort, { once: true });
    if (io.signal?.aborted === true) onAbort();
    else dispatch({ type: 'start' });
    return OUTCOMES[await ended] ?? 'misuse';
  } finally {
    keys?.close();
    io.stdin.removeListener('end', onEnd);
    io.signal?.removeEventListener('abort', onAbort);
  }
}
