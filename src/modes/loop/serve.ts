// The loop mode's grader side (the serve aspect, run by src/grade/run/run-program.ts for each program process): the
// process's batch stays here, in the grader. The program asks over its channel (src/grade/run/channel-server.ts)
// for its next case and gets only the request runLoop is given; each request its client sends and each call of
// execute come here, are answered by the case's fake Messages API (./fake-api.ts) and recorded; when the program
// says how runLoop ended, the case's result line is made here from those records and handed to the process's
// supervision, as are the progress lines (after each turn served) and the probe's observation. So the program
// process never holds a turn not yet served, another case, or the probe's scripts' turns, and nothing it prints is
// read as a result. A message out of turn (a case not running, a second `next` mid-case) is refused, and refused
// only: whatever it would have gained it cannot get.
import type { Json, ModeServe } from '../../grade/run/channel-server.ts';
import { describeThrow, isObject } from '../kit.ts';
import { type FakeApi, type LoopCase, openFakeApi } from './fake-api.ts';
import type { LoopEnd } from './link.ts';
import type { LoopOptions } from './options.ts';
import { parseLoopCase } from './parse-case.ts';

// The grader's side of one program process's cases; `emit` hands a line to its supervision. `options`: the mode's,
// for a mode built on this one.
export function serveLoopCases(
  cases: string[],
  emit: (line: string) => void,
  options: LoopOptions = {},
): (message: Json) => Promise<Json> {
  const parse = options.parse ?? ((text: string) => parseLoopCase(text, options));
  let next = 0;
  let current: { key: string; api: FakeApi } | undefined;
  // The probe's request (the first case's `observe`), and its scripts once they run.
  let observe: unknown;
  let probe: { apis: Map<string, FakeApi>; ends: Map<string, unknown> } | undefined;
  let observed = false;
  // A line made as a message arrives goes out after what the program's pipes hold already (its output before it
  // said so belongs to the case the line ends).
  const later = (line: string): void => void setImmediate(() => emit(line));
  const sessionOf = (key: unknown): FakeApi | undefined =>
    current !== undefined && key === current.key ? current.api : probe?.apis.get(String(key));
  const sayObserved = (): void => {
    if (observed || probe === undefined) return;
    observed = true;
    const seen = [...probe.apis].map(([key, api]) => api.observed(probe!.ends.get(key) ?? { pending: true }));
    later(JSON.stringify({ observed: seen }));
  };

  const nextCase = (): Json => {
    if (current !== undefined) return { error: `case ${current.key} is still running: say how it ended first` };
    while (next < cases.length) {
      const k = next;
      next += 1;
      let testCase: LoopCase;
      try {
        testCase = parse(cases[k]!);
      } catch (error) {
        return { error: `cannot read case on stdin line ${k + 1}: ${describeThrow(error)}` };
      }
      if (k === 0) observe = testCase.observe;
      // A case without turns (the startup probe) runs nothing: asking for the case after it proves the program
      // loaded.
      if (testCase.turns.length === 0) {
        later(JSON.stringify({ results: [] }));
        continue;
      }
      const api = openFakeApi(
        testCase,
        (call, of, tool) => later(JSON.stringify({ calling: { call, of, tool } })),
        options,
      );
      current = { key: String(k + 1), api };
      later(JSON.stringify({ calling: { call: 1, of: api.turns, tool: 'request' } }));
      return { case: current.key, request: api.request, ...(api.setup === undefined ? {} : { setup: api.setup }) };
    }
    return startProbe();
  };

  const startProbe = (): Json => {
    const scripts = isObject(observe) && Array.isArray(observe.scripts) ? observe.scripts : undefined;
    if (probe !== undefined || scripts === undefined) return { done: true };
    let parsed: LoopCase[];
    try {
      parsed = scripts.map((script) => parseLoopCase(JSON.stringify(script), options));
    } catch (error) {
      emit(JSON.stringify({ observed: { error: `a script is not a loop case: ${describeThrow(error)}` } }));
      observed = true;
      return { done: true };
    }
    const apis = parsed.map((script, k): [string, FakeApi] => [`p${k + 1}`, openFakeApi(script, undefined, options)]);
    probe = { apis: new Map(apis), ends: new Map() };
    return { probe: [...probe.apis].map(([key, api]) => ({ case: key, request: api.request })) };
  };

  const ended = (key: unknown, reported: unknown): Json => {
    const end = loopEndOf(reported);
    if (current !== undefined && key === current.key) {
      later(JSON.stringify({ results: current.api.results(end) }));
      current = undefined;
      return { ok: true };
    }
    const api = probe?.apis.get(String(key));
    if (api === undefined || probe!.ends.has(String(key)))
      return { error: `no case ${JSON.stringify(key)} is running` };
    probe!.ends.set(String(key), api.end(end));
    if (probe!.ends.size === probe!.apis.size) sayObserved();
    return { ok: true };
  };

  return answering({ nextCase, sessionOf, ended, sayObserved });
}

// The answer to each message of the program, by its `op`, from the session's steps.
function answering(steps: {
  nextCase: () => Json;
  sessionOf: (key: unknown) => FakeApi | undefined;
  ended: (key: unknown, reported: unknown) => Json;
  sayObserved: () => void;
}): (message: Json) => Promise<Json> {
  const { nextCase, sessionOf, ended, sayObserved } = steps;
  return async (message) => {
    switch (message.op) {
      case 'next':
        return nextCase();
      case 'http': {
        const api = sessionOf(message.case);
        if (api === undefined) return { error: `no case ${JSON.stringify(message.case)} is running` };
        const { method, url, body } = message;
        return api.http({ method: String(method), url: String(url), body: typeof body === 'string' ? body : '' });
      }
      case 'execute': {
        const api = sessionOf(message.case);
        if (api === undefined) return { error: `no case ${JSON.stringify(message.case)} is running` };
        return api.execute(message.name, message.input);
      }
      case 'end':
        return ended(message.case, message.end);
      case 'probe-end':
        sayObserved();
        return { ok: true };
      default:
        return { error: `no such request ${JSON.stringify(message.op)}` };
    }
  };
}

// The end the program reported, taken as data: what it returned or threw, and the request's fields as JSON text
// (anything else is left out, as a loop that reported nothing of it).
function loopEndOf(reported: unknown): LoopEnd {
  const said = isObject(reported) ? reported : {};
  const given: Record<string, string> = {};
  if (isObject(said.given)) {
    for (const [key, text] of Object.entries(said.given)) {
      if (typeof text !== 'string') continue;
      try {
        JSON.parse(text);
        given[key] = text;
      } catch {
        // not JSON text: left out
      }
    }
  }
  // What the mode's `around` added (the fake API keeps only the mode's keys of it).
  const added = isObject(said.added) ? { added: said.added } : {};
  if ('returned' in said) return { returned: said.returned, given, ...added };
  return {
    threw: typeof said.threw === 'string' ? said.threw : 'theinference: the loop ended without saying how',
    given,
    ...added,
  };
}

// The serve aspect of a loop-kind mode: the loop mode's, or a mode built on it with its options.
export function loopServe(options: LoopOptions = {}): ModeServe {
  return { open: (cases, emit) => serveLoopCases(cases, emit, options) };
}

export const serve: ModeServe = loopServe();
