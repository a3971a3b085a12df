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

// The pending set of each watched Tools instance, and the classes whose methods are wrapped.
const pendingOf = new WeakMap<object, Set<Promise<unknown>>>();
const wrapped = new WeakSet<object>();

// Watches `tools`: every promise one of its class's methods returns, called on it, is in `pending` until it
// settles. The methods are wrapped once, on the class, never on the instance: giving each case's instance ten
// methods of its own made every property read in the Tools' methods slower (about 7 % of a dispatch case's CPU).
// A wrapper passes `this` and the arguments as given, so a method called unbound fails as it would, and does
// nothing more for an instance nobody watches. Nothing of the instance changes.
export function watchTools(tools: object): ToolsAtWork {
  const pending = new Set<Promise<unknown>>();
  wrapMethods(Object.getPrototypeOf(tools) as Record<string, unknown>);
  pendingOf.set(tools, pending);
  return { pending };
}

function wrapMethods(proto: Record<string, unknown>): void {
  if (wrapped.has(proto)) return;
  wrapped.add(proto);
  for (const name of Object.getOwnPropertyNames(proto)) {
    const described = Object.getOwnPropertyDescriptor(proto, name);
    const method = described?.value as unknown;
    if (name === 'constructor' || typeof method !== 'function') continue;
    const watched = function (this: unknown, ...args: unknown[]): unknown {
      const out = method.apply(this, args);
      const pending = typeof this === 'object' && this !== null ? pendingOf.get(this) : undefined;
      if (pending !== undefined && out instanceof Promise) {
        pending.add(out);
        const done = (): void => void pending.delete(out);
        out.then(done, done);
      }
      return out;
    };
    Object.defineProperty(watched, 'name', { value: name });
    Object.defineProperty(proto, name, { ...described, value: watched });
  }
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
