// The program's side of its channel to the grader: a unix socket the grader listens on, outside the sandbox (bound
// into it at CHANNEL_ENV's path), one per program process. A mode whose evidence the grader keeps itself (the loop:
// src/modes/loop/serve.ts) asks the grader over it, one JSON object a line, `{"id":n,…}`, and gets back
// `{"id":n,…}`: it never hears more than it asks for, and what it says is only what it asks. Code under test in the
// same process can reach the socket too, and can only ask the same. Hand-written: a line-delimited request and reply
// over a socket is a dozen lines, and a package would have to be loaded in every program process.
import { connect, type Socket } from 'node:net';

// Where a program process finds its channel: the socket's path, in its environment (set by the grader only).
export const CHANNEL_ENV = 'THEINFERENCE_CHANNEL';

export type Channel = {
  // Asks the grader; resolves to its answer (an object). Rejects once the channel is closed. An answer asked for
  // ahead (`ahead`: to be awaited later, after other work) holds the process up only once `awaited` says it is.
  ask: (message: Record<string, unknown>, ahead?: 'ahead') => Promise<Record<string, unknown>>;
  // The answer asked for ahead, now awaited: from here on it holds the process up until it comes.
  awaited: (answer: Promise<Record<string, unknown>>) => Promise<Record<string, unknown>>;
  // Tells the grader, which answers nothing; resolves once the message has left this process (so that code which
  // never gives the event loop back after it cannot keep it here). Rejects once the channel is closed.
  tell: (message: Record<string, unknown>) => Promise<void>;
  close: () => void;
};

// Connects to the channel at `path`.
export function openChannel(path: string): Promise<Channel> {
  return new Promise((opened, failed) => {
    const socket: Socket = connect(path);
    const waiting = new Map<
      number,
      { answer: (reply: Record<string, unknown>) => void; fail: (e: Error) => void; holds: boolean }
    >();
    let next = 0;
    let pending = '';
    const idOf = new WeakMap<Promise<unknown>, number>();
    const closed = (): void => {
      for (const { fail } of waiting.values()) fail(new Error("theinference: the grader's channel closed"));
      waiting.clear();
    };
    // The socket holds the process up only while an answer is awaited: code under test that awaits a promise never
    // settled, with nothing else pending, ends the process as it would without a channel (Node exits 13), and the
    // grader names the call in flight rather than waiting out the case's timeout.
    const hold = (): void => void ([...waiting.values()].some((w) => w.holds) ? socket.ref() : socket.unref());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const reply = JSON.parse(line) as Record<string, unknown>;
        const asked = waiting.get(reply.id as number);
        waiting.delete(reply.id as number);
        hold();
        asked?.answer(reply);
      }
    });
    socket.on('close', closed);
    socket.once('error', (error) => {
      failed(error);
      closed();
    });
    socket.once('connect', () => {
      hold();
      opened({
        ask: (message, ahead) => {
          const answer = new Promise<Record<string, unknown>>((answer, fail) => {
            if (socket.destroyed) return fail(new Error("theinference: the grader's channel closed"));
            next += 1;
            waiting.set(next, { answer, fail, holds: ahead === undefined });
            hold();
            socket.write(`${JSON.stringify({ ...message, id: next })}\n`);
          });
          idOf.set(answer, next);
          return answer;
        },
        awaited: (answer) => {
          const asked = waiting.get(idOf.get(answer) ?? -1);
          if (asked !== undefined) {
            asked.holds = true;
            hold();
          }
          return answer;
        },
        tell: (message) =>
          new Promise((sent, fail) => {
            if (socket.destroyed) return fail(new Error("theinference: the grader's channel closed"));
            next += 1;
            // `reply: false`: the grader answers nothing, which nobody here would read.
            socket.write(`${JSON.stringify({ ...message, id: next, reply: false })}\n`, (error) =>
              error ? fail(error) : sent(),
            );
          }),
        close: () => socket.destroy(),
      });
    });
  });
}
