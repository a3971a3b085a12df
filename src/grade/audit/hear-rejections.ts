// A loop that reads execute's output without `await` leaves the promise of a throwing tool rejected with no one to
// hear it: in a program process that ends the process, which the grader judges as a crash. Graded in-process, the
// same rejection would end the grader (or fail a test file): so it is heard here instead, and said, for the case
// to be judged as the crash it would have been.

// Runs `f` with the process's unhandled rejections heard here instead of by their usual listeners, and gives the
// first one's message. Only one `f` at a time may be heard (a rejection says nothing of whose it is).
export async function hearRejections<T>(f: () => Promise<T>): Promise<{ value: T; unheard: string | undefined }> {
  const listeners = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  let unheard: string | undefined;
  const hear = (reason: unknown): void => {
    unheard ??= reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  };
  process.on('unhandledRejection', hear);
  try {
    const value = await f();
    // A rejection is reported once the microtasks of the turn it happened in have run.
    await new Promise((ready) => setImmediate(ready));
    return { value, unheard };
  } finally {
    process.off('unhandledRejection', hear);
    for (const listener of listeners) process.on('unhandledRejection', listener);
  }
}
