// The Tools the driver gives a makeExecute once, before its first case or probe call. A dispatcher that keeps the
// first Tools it is given (`shared ??= tools`) then calls this one's methods in every case, alone or after others,
// and each answers EARLIER_TOOLS_ANSWER, which nothing else gives. Without it, such a dispatcher passes each case
// run alone (its first Tools is that case's own), and only the leaked-state warning would speak of it.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mute } from '../kit.ts';

// What every method of the earlier Tools answers.
export const EARLIER_TOOLS_ANSWER = {
  content:
    "answered by the Tools of an earlier makeExecute call (the grader's, made before any case), not by the tools this execute's makeExecute was given",
  is_error: true,
} as const;

// A root no case has: the earlier Tools never touch the filesystem.
const ROOT = join(tmpdir(), 'theinference-earlier-tools');

const given = new WeakSet<object>();

// Gives `make` the earlier Tools, with every method of the course's `Tools` class, once per factory (a process
// grades one; the audit, many), silenced. A throw is ignored, and so is the rejection of an async makeExecute (which
// would otherwise end the process, unheard): they are the cases' and the probe's to show.
export function giveEarlierTools(make: (tools: any) => unknown, Tools: { prototype: object }): void {
  if (given.has(make)) return;
  given.add(make);
  const tools: Record<string, unknown> = { root: ROOT };
  for (const method of Object.getOwnPropertyNames(Tools.prototype).filter((m) => m !== 'constructor')) {
    tools[method] = async () => ({ ...EARLIER_TOOLS_ANSWER });
  }
  const unmute = mute();
  try {
    const made = make(tools);
    if (made instanceof Promise) made.catch(() => {});
  } catch {
    // makeExecute throwing for a Tools it did not expect says nothing about the cases.
  } finally {
    unmute();
  }
}
