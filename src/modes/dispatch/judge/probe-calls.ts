// The calls the probe makes: what program.ts's probe mode feeds the student's makeExecute, built from the
// dispatcher contract (src/course/dispatcher-contract.ts), each with the answer the stand-in Tools gives and what it varies.
// Every name and alias; every key with a value no other key has (so an argument tells which key it was read
// from); the names a key is misread under; each key empty ("" or 0), and each optional one null; the fallback key
// alone; each key of another type than its own (a number for a path, "7" for a line); echo's text plain, empty,
// a number and with spaces and newlines around it; names outside the contract. Pure.
import {
  ECHO,
  ECHO_KEY,
  KEY_KINDS,
  keyFor,
  METHODS,
  MISREAD_KEYS,
  type MethodContract,
  UNKNOWN_NAMES,
} from '../../../course/dispatcher-contract.ts';
import { LONG_ANSWER_LENGTH, padded } from '../long-answer.ts';

type Input = Record<string, unknown>;
// What a stand-in Tools method answers: every field a ToolOutput can have, or `content` alone.
export type Answer = { content: string; is_error?: boolean; exit_code?: number };

// What one probe varies: every key sent (`full`), only the required ones, the misread names beside the right
// ones, one key empty or null or left out; for echo, its text with spaces around it; a name outside the contract.
export type ProbeKind =
  | { kind: 'full' }
  | { kind: 'required' }
  | { kind: 'misread' }
  | { kind: 'falsy' | 'null' | 'absent' | 'mistyped'; key: string }
  | { kind: 'edged' | 'dotted'; key: string }
  // A range of another shape than [start, end] in order: one number, or the two the wrong way round.
  | { kind: 'shaped'; key: string }
  // The call made after others through the same execute (`first`): a state one call leaves shows in the next.
  | { kind: 'after' }
  | { kind: 'reordered' }
  | { kind: 'long' }
  | { kind: 'unknown' };

// One call of the probe: the name, the input, what every method of the stand-in Tools answers, and what it varies;
// `again`: the call is made a second time with the same input, through the same execute, the methods answering
// this then (a result reused from an earlier call shows); `long`: the answer's content padded to that length
// (expectedAnswer gives it whole).
// `first`: calls made before it through the same execute, whatever they get (a `cd`, a Read of the same path).
export type Probe = {
  tool: string;
  input: Input;
  answer: Answer;
  vary: ProbeKind;
  again?: Answer;
  long?: number;
  first?: Earlier[];
};
// A call made before a probe call, through its execute.
type Earlier = { tool: string; input: Input };

// What program.ts's probe mode is sent: the Tools methods to stand in for, and the calls.
type ProbeRequest = {
  methods: string[];
  calls: { tool: string; input: Input; answer: Answer; again?: Answer; long?: number; first?: Earlier[] }[];
};

// Echo's text with what a trim or a stripped newline would lose.
export const EDGED_TEXT = '  probe text \n\n';

// A value for each key that no other key of the probe has.
function values(keys: string[]): Input {
  const input: Input = {};
  keys.forEach((key, k) => {
    const kind = KEY_KINDS[key] ?? 'text';
    input[key] = kind === 'number' ? 7 + k * 101 : kind === 'range' ? [2 + k, 5 + k] : `probe-${key}`;
  });
  return input;
}

const falsy = (key: string): unknown => (KEY_KINDS[key] === 'number' ? 0 : '');

function methodProbes(contract: MethodContract): Omit<Probe, 'tool' | 'answer'>[] {
  const keys = contract.keys;
  const fallbacks = contract.args.filter((a) => typeof a !== 'string').flat();
  const optional = keys.filter((k) => !contract.required.includes(k) && !fallbacks.includes(k));
  const misread = keys.flatMap((k) => MISREAD_KEYS[k] ?? []).filter((k) => !keys.includes(k));
  const full = values(keys);
  const probes: Omit<Probe, 'tool' | 'answer'>[] = [
    { input: full, vary: { kind: 'full' } },
    { input: pick(full, contract.required), vary: { kind: 'required' } },
    { input: values([...keys, ...misread]), vary: { kind: 'misread' } },
  ];
  // Only a key that an argument is read from when it is sent: the fallback behind `??` is not read beside it.
  const effective = contract.args.map((a) => keyFor(a, full));
  for (const key of effective.filter((k) => KEY_KINDS[k] !== 'range')) {
    probes.push({ input: { ...full, [key]: falsy(key) }, vary: { kind: 'falsy', key } });
  }
  for (const key of optional) probes.push({ input: { ...full, [key]: null }, vary: { kind: 'null', key } });
  // A value of another type than the key's: the Tools reject it, so the dispatcher must pass it on as it is.
  for (const key of effective.filter((k) => KEY_KINDS[k] !== 'range')) {
    const value = full[key];
    probes.push({
      input: { ...full, [key]: typeof value === 'number' ? String(value) : 4242 },
      vary: { kind: 'mistyped', key },
    });
  }
  // A text where a model sends one now and then: an array (a Bash command as its words), which a join would hide.
  for (const key of effective.filter((k) => KEY_KINDS[k] === 'text')) {
    probes.push({ input: { ...full, [key]: [full[key]] }, vary: { kind: 'mistyped', key } });
  }
  // A range sent as texts (["2", "5"]) or as the JSON text of one ("[2, 5]"), as models do: tools.view refuses
  // both, so a conversion (`.map(Number)`, `JSON.parse`) shows; and of another shape: one number ([2], which a
  // widening to [2, -1] would hide) and its two numbers the wrong way round (which a sort would hide).
  for (const key of effective.filter((k) => KEY_KINDS[k] === 'range')) {
    const value = full[key];
    if (!Array.isArray(value)) continue;
    probes.push({ input: { ...full, [key]: value.map(String) }, vary: { kind: 'mistyped', key } });
    probes.push({ input: { ...full, [key]: JSON.stringify(value) }, vary: { kind: 'mistyped', key } });
    probes.push({ input: { ...full, [key]: value.slice(0, 1) }, vary: { kind: 'shaped', key } });
    probes.push({ input: { ...full, [key]: [...value].reverse() }, vary: { kind: 'shaped', key } });
  }
  // A text with spaces and line breaks at its ends, which the Tools take as sent: what a trim would lose.
  for (const key of effective.filter((k) => KEY_KINDS[k] === 'text' || KEY_KINDS[k] === undefined)) {
    probes.push({ input: { ...full, [key]: `  ${full[key]} \n` }, vary: { kind: 'edged', key } });
  }
  // A path starting with ./, which the Tools take as sent and echo so: what a normalization changes.
  for (const key of effective.filter((k) => k === 'path')) {
    probes.push({ input: { ...full, [key]: `./${full[key]}` }, vary: { kind: 'dotted', key } });
  }
  // An output longer than any the Tools give: a cut the dispatcher makes shows.
  probes.push({ input: full, vary: { kind: 'long' } });
  // The same keys sent in the other order: arguments taken by position (Object.values) follow it.
  probes.push({ input: Object.fromEntries(Object.entries(full).reverse()), vary: { kind: 'reordered' } });
  for (const source of contract.args.filter((a) => typeof a !== 'string')) {
    const [first] = source;
    if (first !== undefined) probes.push({ input: omit(full, first), vary: { kind: 'absent', key: first } });
    // Every key of the `??` left out: what goes in when the model sends the text under neither name.
    const last = source.at(-1);
    if (last !== undefined && contract.required.some((k) => source.includes(k))) {
      probes.push({ input: source.reduce(omit, full), vary: { kind: 'absent', key: last } });
    }
  }
  // Each required key left out: what a conversion (`Number(input.insert_line)`) makes of nothing. Then left out
  // with the names it is misread under sent instead (Claude Code's `file_path`, `content`): a fallback to one of
  // them (`input.path ?? input.file_path`) shows.
  for (const key of contract.required.filter((k) => typeof contract.args.find((a) => a.includes(k)) === 'string')) {
    probes.push({ input: omit(full, key), vary: { kind: 'absent', key } });
    const misreadAs = (MISREAD_KEYS[key] ?? []).filter((k) => !keys.includes(k));
    if (misreadAs.length > 0) {
      probes.push({ input: { ...omit(full, key), ...values(misreadAs) }, vary: { kind: 'absent', key } });
    }
  }
  // After a Read of the same path and a `cd` through the same execute: a dispatcher that keeps state between calls
  // (a directory it remembers, a file it wants read first) treats this call otherwise.
  const path = typeof full.path === 'string' ? full.path : 'probe-path';
  probes.push({
    input: full,
    vary: { kind: 'after' },
    first: [
      { tool: 'Read', input: { path } },
      { tool: 'Bash', input: { command: 'cd probe-dir' } },
    ],
  });
  return probes;
}

function echoProbes(): Omit<Probe, 'tool' | 'answer'>[] {
  const misread = MISREAD_KEYS[ECHO_KEY] ?? [];
  return [
    { input: values([ECHO_KEY]), vary: { kind: 'full' } },
    { input: { [ECHO_KEY]: '' }, vary: { kind: 'falsy', key: ECHO_KEY } },
    { input: { [ECHO_KEY]: EDGED_TEXT }, vary: { kind: 'edged', key: ECHO_KEY } },
    // A text of another type, which echo returns as it is.
    { input: { [ECHO_KEY]: 4242 }, vary: { kind: 'mistyped', key: ECHO_KEY } },
    // No text at all: echo returns input.text as it is, nothing included.
    { input: {}, vary: { kind: 'absent', key: ECHO_KEY } },
    { input: values([ECHO_KEY, ...misread]), vary: { kind: 'misread' } },
  ];
}

let cached: Probe[] | undefined;

// Every probe call, in a fixed order; the answers alternate between every field and `content` alone, so that a
// field added to a result shows as clearly as one dropped.
export function probes(): Probe[] {
  if (cached !== undefined) return cached;
  const list: Omit<Probe, 'answer'>[] = [];
  for (const contract of Object.values(METHODS)) {
    for (const name of contract.names) list.push(...methodProbes(contract).map((p) => ({ ...p, tool: name })));
  }
  list.push(...echoProbes().map((p) => ({ ...p, tool: ECHO })));
  // With a `command`, as Anthropic's text editor tool sends one: a branch that routes that tool by it shows.
  const unknownInput = { command: 'view', ...values(['path']) };
  for (const name of UNKNOWN_NAMES) list.push({ tool: name, input: unknownInput, vary: { kind: 'unknown' } });
  // Each content ends in a line break, so that a trim shows; an error comes with an exit code and without one.
  cached = list.map((p, k) => {
    const content = `probe answer ${k + 1}\n`;
    // The keys in another order are answered a success with every field (a change made to successes only shows).
    const answer: Answer =
      p.vary.kind === 'required' || p.vary.kind === 'long'
        ? { content }
        : p.vary.kind === 'reordered'
          ? { content, is_error: false, exit_code: 0 }
          : p.vary.kind === 'misread' || p.vary.kind === 'edged'
            ? { content, is_error: true }
            : { content, is_error: true, exit_code: 3 };
    // Each method's call with every key is made twice: the second answer is another text, without the first's
    // other fields (a result reused shows its text; fields kept from an earlier result show theirs). So is the
    // call with the required keys, whose first answer is no error: a cache that keeps successes only shows there.
    const twice = (p.vary.kind === 'full' || p.vary.kind === 'required') && p.tool !== ECHO;
    const long = p.vary.kind === 'long' ? { long: LONG_ANSWER_LENGTH } : {};
    return { ...p, answer, ...long, ...(twice ? { again: { content: `probe answer ${k + 1} again\n` } } : {}) };
  });
  return cached;
}

// The request program.ts's probe mode is sent.
export function probeRequest(): ProbeRequest {
  return {
    methods: Object.keys(METHODS),
    calls: probes().map(({ tool, input, answer, again, long, first }) => ({
      tool,
      input,
      answer,
      ...(again ? { again } : {}),
      ...(first ? { first } : {}),
      ...(long === undefined ? {} : { long }),
    })),
  };
}

// What the stand-in answers a probe, whole: a long answer padded as the driver pads it.
export function expectedAnswer(probe: Probe): Answer {
  return probe.long === undefined
    ? probe.answer
    : { ...probe.answer, content: padded(probe.answer.content, probe.long) };
}

function pick(input: Input, keys: string[]): Input {
  return Object.fromEntries(Object.entries(input).filter(([k]) => keys.includes(k)));
}

function omit(input: Input, key: string): Input {
  return Object.fromEntries(Object.entries(input).filter(([k]) => k !== key));
}
