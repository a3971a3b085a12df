// The replay worker, run as `node --import <tsx> replay-worker.ts` in the reference's package root through the
// grader's own process starter (src/grade/run/program-process.ts): whatever confines a student's program confines
// the recorded commands too. It imports the driver's `dispatch` and the reference `makeExecute` and serves
// requests for as long as its stdin stays open, one JSON line in, one JSON line out:
//
//   {"files":…,"calls":[…],"boundMs":N}      a whole case: {"results":[…],"after":{…},"unchanged":[…],"bashMs":{…}}
//   {"session":"open","files":…,"call":…}    a case call by call (replay-session.ts): each call's step,
//   {"session":"call","call":…}              {"result":…,"after":…,"unchanged":…,"bashMs":…}; "undo" puts the
//   {"session":"undo"} / {"session":"close"} sandbox back as it was before the last call; "close" ends the case
//
// `after` holds, for each call that writes a file, the file's text right after it (null when it is gone), which
// verification compares with what the recording says the file became; `unchanged` the Bash calls that changed
// nothing in the sandbox. Every Bash call is bounded (`boundMs`), so a recorded server cannot hang the recorder; a
// bounded call that runs out is a timeout result, never kept. A whole case may be served while a session waits for
// its next call (the recorder asks whether a call reproduces alone without closing the case it is judging).
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { dispatch as runCase } from '../../modes/dispatch/driver.ts';
import type { Case } from '../../modes/dispatch/parse-case.ts';
import { type Dispatch, type Make, observingMake, type Observed, openSession, type Session } from './replay-session.ts';

// One whole case and the longest a Bash call may run, in milliseconds.
type CaseRequest = { files?: unknown; calls: { tool: string; input: Record<string, unknown> }[]; boundMs: number };
type SessionRequest =
  | { session: 'open'; files?: unknown; call: { tool: string; input: Record<string, unknown> }; boundMs: number }
  | { session: 'call'; call: { tool: string; input: Record<string, unknown> } }
  | { session: 'undo' }
  | { session: 'close' };

// The recorder's cases are its own, not read from text: the driver checks each seed path as it writes it.
const dispatch: Dispatch = (testCase, make) => runCase(testCase as Case, make);
// The reference's makeExecute, from the directory the worker runs in (the reference's package root); the package's
// own driver loads its Tools from there too.
const { makeExecute } = (await import(pathToFileURL(resolve('src/execute.ts')).href)) as { makeExecute: Make };

let session: Session | undefined;

async function serveCase(request: CaseRequest): Promise<unknown> {
  const seen: Observed = { after: {}, unchanged: [], bashMs: {} };
  const results = await dispatch(
    { files: request.files ?? {}, calls: request.calls },
    observingMake(makeExecute, request.boundMs, seen),
  );
  return { results, ...seen };
}

// A session's replies; once it has ended (closed, or its case could not start) the next may open.
async function serveSession(request: SessionRequest): Promise<unknown> {
  if (request.session === 'open') {
    if (session !== undefined) return { error: 'a session is already open' };
    session = openSession(dispatch, makeExecute, {
      files: request.files ?? {},
      first: request.call,
      boundMs: request.boundMs,
    });
    const reply = await session.first;
    if (isError(reply)) await endSession();
    return reply;
  }
  if (session === undefined) return { error: `no session is open for ${request.session}` };
  const reply = await session.send(request);
  if (request.session === 'close') await endSession();
  return reply;
}

async function endSession(): Promise<void> {
  await session?.ended;
  session = undefined;
}

const isError = (reply: unknown): boolean => typeof reply === 'object' && reply !== null && 'error' in reply;

async function serve(line: string): Promise<string> {
  try {
    const request = JSON.parse(line) as CaseRequest | SessionRequest;
    return JSON.stringify('session' in request ? await serveSession(request) : await serveCase(request));
  } catch (error) {
    return JSON.stringify({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}

const print = process.stdout.write.bind(process.stdout);
// Only protocol lines on stdout: anything else the code prints goes to stderr.
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const reply = await serve(line);
  await new Promise<void>((done) => print(`${reply}\n`, () => done()));
}
