// The Tools a case's dispatcher is given, watched for work still running when the case's calls are done: a
// dispatcher that does not await a method (its result copied off the promise) leaves a write or a command running,
// which would make its case's sandbox again after the driver removed it. The driver waits a little for that work,
// removes the sandbox, and removes it again as each piece still running settles; in a program process the sandbox
// is in its own temp dir, gone with it, but the audit and the recorder run cases in theirs (docs/tools.md: a method
// never rejects, so watching one changes nothing its caller sees).

// How long the driver waits for work still running before it removes the sandbox: a write left running takes
// milliseconds; a command may take its whole timeout, and is removed after as it settles.
export const LATE_WORK_MS = 1000;

// The work a case's Tools still has running.
export type ToolsAtWork = { pending: Set<Promise<unknown>> };

// Wraps each method of `tools` (its class's) on the instance, not enumerable, as the class's are not: every promise
// it returns is in `pending` until it settles; `this` is passed as given, so a method called unbound fails as it
// would. Nothing else of the instance changes.
export function watchTools(tools: object): ToolsAtWork {
  const pending = new Set<Promise<unknown>>();
  const proto = Object.getPrototypeOf(tools) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const method = proto[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    Object.defineProperty(tools, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): unknown {
        const out = method.apply(this, args);
        if (out instanceof Promise) {
          pending.add(out);
          const done = (): void => void pending.delete(out);
          out.then(done, done);
        }
        return out;
      },
    });
  }
  return { pending };
}

// Waits for the work still running, up to LATE_WORK_MS, then removes the sandbox (`remove`), and again as each
// piece still running after that settles.
export async function removeAfterWork(at: ToolsAtWork, remove: () => Promise<void>): Promise<void> {
  if (at.pending.size > 0) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((ready) => (timer = setTimeout(ready, LATE_WORK_MS)));
    await Promise.race([Promise.allSettled([...at.pending]), late]);
    clearTimeout(timer);
  }
  await remove();
  for (const work of at.pending) void work.then(remove, remove);
}
