import type { Call } from '../../course/types.ts';
import { jsonEqual } from './compare-results.ts';
import {
  branchOf,
  KNOWN_NAMES,
  leftTimerOf,
  METHODS,
  methodOf,
  missingMethod,
  missingMethodText,
} from '../../course/dispatcher-contract.ts';

// What the grader knows about the first call of a failing case that differs from the snapshot: no more.
type HintContext = { call: Call; expected: unknown; received: unknown };

// A recognised mistake: what to tell the student about this call, and what makes it the same mistake as another
// call's (the terminal report shows failures of one cause once). The cause leaves out what varies from call to call
// (the tool name sent, the input), so that throwing on every unknown name, say, is one mistake, not thirteen.
export type Hint = { text: string; cause: string };

type Output = Record<string, unknown>;
type Recogniser = (ctx: HintContext) => Hint | string | undefined;

// How each method's own results begin, to tell which method a misrouted call reached.
const SHAPES: [method: string, shape: RegExp][] = [
  ['create', /^File (created|overwritten) successfully at: /],
  ['strReplace', /^The file [^\n]* has been edited\.$|^No replacement was performed: /],
  ['insert', /^Inserted text after line \d+ of |^Invalid insert_line /],
  ['view', /^\d+: |^\(empty (file|directory)\)$|^Invalid view_range|^Cannot display binary file: /],
  ['glob', /^No files found$/],
  ['grep', /^No matches found$|^Invalid regex: |^[^\n:]+:\d+: /],
];

const asOutput = (v: unknown) => (v !== null && typeof v === 'object' ? (v as Output) : undefined);
const contentOf = (v: unknown) => {
  const content = asOutput(v)?.content;
  return typeof content === 'string' ? content : undefined;
};
const isError = (v: unknown) => asOutput(v)?.is_error === true;
const says = (v: unknown, re: RegExp) => re.test(contentOf(v) ?? '');
const lines = (v: unknown) => contentOf(v)?.split('\n') ?? [];
const without = (v: unknown, key: string) =>
  Object.fromEntries(Object.entries(asOutput(v) ?? {}).filter(([k]) => k !== key));
const given = (call: Call, key: string) => call.input[key] !== undefined && call.input[key] !== null;
const expectsUnknown = ({ call, expected }: HintContext) => contentOf(expected) === `unknown tool: ${call.tool}`;
// An unknown-tool answer in any spelling, returned or thrown: the name was rejected, only the form is off.
const rejectsName = (received: unknown) =>
  says(received, /unknown tool/i) || /unknown tool/i.test(String(asOutput(received)?.threw ?? ''));
// The received result has every line of the expected one, and more: a filter was dropped.
const moreLines = (expected: unknown, received: unknown) =>
  lines(received).length > lines(expected).length && lines(expected).every((l) => lines(received).includes(l));
// Globbed from the sandbox root instead of `path`: nothing there, or the same files with the directory in front.
const fromRoot = (expected: unknown, received: unknown) =>
  contentOf(received) === 'No files found' ||
  lines(expected).every((e) => lines(received).some((r) => r.endsWith(`/${e}`)));
const TIME_LIMIT = /\[timed out after |^Invalid parameter 'timeout'/;

// The course contract, where a student's course directory has it (npm installs the package with its docs).
const TOOLS_DOC = 'node_modules/theinference/docs/tools.md';

// What the stub `theinference init` writes answers every call with (course-template/src/execute.ts).
const STUB_ANSWER = /^makeExecute is not written yet\b/;

// The cause of the stub's hint: one mistake, whatever the probe finds unwired (src/grade/judge/explain-failures.ts).
export const STUB_CAUSE = 'the stub';

function stillTheStub({ received }: HintContext): Hint | undefined {
  if (!says(received, STUB_ANSWER)) return undefined;
  const text = `src/execute.ts is still the stub \`theinference init\` wrote: write makeExecute, routing each tool name and its alias to its Tools method (the course page "Register the toolset"; ${TOOLS_DOC}, section "The dispatcher")`;
  return { text, cause: STUB_CAUSE };
}

// `toString`, `constructor`, `__proto__` found Object.prototype's members in a plain-object map.
function inheritedName(ctx: HintContext): Hint | undefined {
  const { tool } = ctx.call;
  if (!expectsUnknown(ctx) || !(tool in Object.prototype) || rejectsName(ctx.received)) return undefined;
  const text = `\`${tool}\` reached Object.prototype: a plain-object lookup (handlers[name]) finds inherited members; use a switch, a Map or Object.hasOwn so it gets \`unknown tool: ${tool}\``;
  return { text, cause: 'inherited name' };
}

// `read` answered as if it were `Read`.
function caseInsensitiveName(ctx: HintContext): Hint | undefined {
  const { tool } = ctx.call;
  const twin = KNOWN_NAMES.find((n) => n !== tool && n.toLowerCase() === tool.toLowerCase());
  if (!expectsUnknown(ctx) || twin === undefined || rejectsName(ctx.received)) return undefined;
  const text = `tool names are exact: \`${tool}\` is not \`${twin}\` and must get \`unknown tool: ${tool}\`; compare the name as sent (no toLowerCase)`;
  return { text, cause: 'name compared without case' };
}

function threw(ctx: HintContext): Hint | undefined {
  const error = asOutput(ctx.received)?.threw;
  if (typeof error !== 'string') return undefined;
  const missing = missingMethod(error, ctx.call.tool);
  if (missing !== undefined) {
    return { text: missingMethodText(missing, [ctx.call.tool]), cause: `missing method ${missing.called}` };
  }
  if (!expectsUnknown(ctx)) {
    const text = `execute threw (${error}) on ${ctx.call.tool}: a failure must come back as { content, is_error: true }, never a throw`;
    return { text, cause: `threw ${error} in ${branchOf(ctx.call.tool)}` };
  }
  const text = `execute threw (${error}) instead of returning { content: 'unknown tool: ${ctx.call.tool}', is_error: true }: an unknown tool is an observation for the model, not a crash`;
  return { text, cause: 'threw on an unknown name' };
}

// The cause of the hint for a call that returned and left a timer of its own running.
export const LEFT_TIMER_CAUSE = 'left a timer running';

// A call that returned, leaving a timer it made pending (the driver saw it: src/modes/dispatch/left-timers.ts).
function leftTimer({ expected, received }: HintContext): Hint | undefined {
  const timer = leftTimerOf(received);
  if (timer === undefined || leftTimerOf(expected) !== undefined) return undefined;
  const text = `execute returned its result but left a ${timer.kind}(…, ${timer.ms}) of its own running, as a watchdog raced against the call and never cleared does: each call leaves one more, and the agent's process cannot end until they fire. Clear it once the call settles (\`clearTimeout\` in a \`finally\`)`;
  return { text, cause: LEFT_TIMER_CAUSE };
}

// The name was rejected, but not as `{ content: 'unknown tool: NAME', is_error: true }` to the letter.
function unknownWording(ctx: HintContext): Hint | undefined {
  const { tool } = ctx.call;
  const got = contentOf(ctx.received) ?? '';
  const want = `unknown tool: ${tool}`;
  if (!expectsUnknown(ctx) || !/^unknown tool:/i.test(got)) return undefined;
  if (got !== want) {
    // The same wrong template whatever name it was filled with.
    const template = tool === '' ? `${got}<name>` : got.split(tool).join('<name>');
    // Lowercase only when case is all that differs: a longer text is said as it is.
    const lowercase = got.toLowerCase() === want.toLowerCase() ? 'lowercase ' : '';
    return {
      text: `the exact text is ${lowercase}\`${want}\` (you sent \`${got}\`)`,
      cause: `unknown tool worded ${template}`,
    };
  }
  const text = `an unknown tool is an error: return { content: '${want}', is_error: true } (your result has no \`is_error: true\`)`;
  return { text, cause: 'unknown tool without is_error' };
}

function unwiredName(ctx: HintContext): string | undefined {
  const { tool } = ctx.call;
  const method = methodOf(tool);
  if (contentOf(ctx.received) !== `unknown tool: ${tool}` || expectsUnknown(ctx)) return undefined;
  if (tool === 'echo') return 'the name `echo` is not wired: return { content: input.text }';
  if (method === undefined) return undefined;
  const kind = METHODS[method]?.names.length === 1 ? 'name' : 'alias';
  return `the ${kind} \`${tool}\` is not wired: route it to tools.${method}`;
}

function nothingReturned(ctx: HintContext): Hint | undefined {
  if (ctx.received !== null && ctx.received !== undefined) return undefined;
  const text = `execute returned nothing for ${ctx.call.tool}: a \`return\` is missing in its branch (or the result was never returned)`;
  return { text, cause: `nothing returned in ${branchOf(ctx.call.tool)}` };
}

// The value is there, under another key: `{ text: input.text }` where a ToolOutput has `content`.
function wrongResultKey({ call, expected, received }: HintContext): Hint | undefined {
  const want = contentOf(expected);
  const got = asOutput(received);
  if (want === undefined || got === undefined || 'content' in got) return undefined;
  const key = Object.keys(got).find((k) => got[k] === want);
  if (key === undefined) return undefined;
  const fix =
    call.tool === 'echo'
      ? '{ content: input.text }'
      : `{ content: … } (the ToolOutput of tools.${methodOf(call.tool) ?? 'the tool'} as it is)`;
  const text = `${call.tool}'s result has \`${key}\` where a ToolOutput has \`content\`: return ${fix}`;
  return { text, cause: `result under ${key} in ${branchOf(call.tool)}` };
}

function echoWithoutText({ call, received }: HintContext): string | undefined {
  if (call.tool !== 'echo' || contentOf(received) !== undefined) return undefined;
  if (jsonEqual(received, call.input) || jsonEqual(asOutput(received)?.content, call.input)) {
    return 'echo returned the whole input: it must return { content: input.text }';
  }
  return 'echo must return { content: input.text }';
}

// A Promise prints as `{}` in JSON and as '[object Promise]' in a string; a field read off a Promise is undefined,
// which leaves `{}`; a `.then` stores its result too late.
function unawaited({ call, expected, received }: HintContext): Hint | undefined {
  const method = `tools.${methodOf(call.tool) ?? 'the tool'}`;
  const cause = `not awaited in ${branchOf(call.tool)}`;
  const content = asOutput(received)?.content;
  if ((content !== null && typeof content === 'object') || content === '[object Promise]') {
    return {
      text: `the result of ${method} was not awaited: \`content\` holds a Promise; return the ToolOutput of ${method}(…) itself`,
      cause,
    };
  }
  if (jsonEqual(received, {}) && contentOf(expected) !== undefined) {
    const text = `${call.tool}'s result is {} (no \`content\`): a field read off ${method}(…) without \`await\` is undefined (it returns a Promise), as is a field a ToolOutput does not have; return ${method}(…) itself, or read the fields of \`await ${method}(…)\`. \`npm run typecheck\` flags both: the grader runs your code without type-checking it`;
    return { text, cause };
  }
  if (!jsonEqual(received, { content: '' }) || !contentOf(expected)) return undefined;
  const text = `${call.tool} returned before ${method} finished: its promise was not awaited (fire-and-forget, or a .then that stores the result too late); return or await it`;
  return { text, cause };
}

function extraIsErrorFalse({ call, expected, received }: HintContext): Hint | undefined {
  if (asOutput(received)?.is_error !== false || 'is_error' in (asOutput(expected) ?? {})) return undefined;
  if (!jsonEqual(without(received, 'is_error'), expected)) return undefined;
  const text = `only bash sets is_error: a success from ${call.tool} has no is_error key (drop the added \`is_error: false\`)`;
  return { text, cause: 'is_error: false added' };
}

function missingParameter({ call, expected, received }: HintContext): Hint | string | undefined {
  const key = /^Missing required parameter '(\w+)'$/.exec(contentOf(received) ?? '')?.[1];
  const method = methodOf(call.tool);
  if (key === undefined || method === undefined || contentOf(expected) === contentOf(received)) return undefined;
  if (!METHODS[method]?.keys.includes(key)) {
    const owners = Object.keys(METHODS).filter((m) => METHODS[m]?.keys.includes(key));
    const text = `${call.tool} was routed to the wrong method: it asked for \`${key}\`, which tools.${method} does not take (tools.${owners.join(' / tools.')} does); route it to tools.${method}`;
    return { text, cause: `${branchOf(call.tool)} routed to a method taking ${key}` };
  }
  // Sent empty, arrived missing: `||` fell through to an absent new_str (reading new_str alone does the same, and
  // the same `??` fixes both).
  if (key === 'insert_text' && call.input.insert_text === '' && !given(call, 'new_str')) {
    return 'input.insert_text is "" in this call and arrived as missing: `input.insert_text || input.new_str` treats "" as missing; use `input.insert_text ?? input.new_str`, which falls back only when insert_text is absent';
  }
  if (key === 'insert_text' && given(call, 'new_str')) {
    return "insert got no text: this call sends it as `new_str` (Anthropic's name); pass input.insert_text ?? input.new_str";
  }
  if (key === 'insert_text') {
    return 'input.insert_text was not passed: current models send `insert_text`; pass input.insert_text ?? input.new_str';
  }
  const spelling = key.includes('_') ? 'in snake_case, as the model sends it' : 'as the model sends it';
  return `input.${key} was not passed: read \`${key}\` from the input (${spelling})`;
}

// An error of the contract's own wording about one argument, where the call sent that argument fine: the
// dispatcher put something else in its place (the whole input object, another key, the right keys out of order).
function misplacedArgument({ call, expected, received }: HintContext): Hint | undefined {
  const method = methodOf(call.tool);
  const contract = method === undefined ? undefined : METHODS[method];
  if (contract === undefined || !isError(received) || contentOf(expected) === contentOf(received)) return undefined;
  const got = contentOf(received) ?? '';
  const invalid = /^Invalid parameter '(\w+)': expected (?:a string, got (\w+)|a whole number[^,]*, got (.*))$/.exec(
    got,
  );
  let key: string | undefined;
  let what: string | undefined;
  if (invalid !== null) {
    key = invalid[1] ?? '';
    const wholeInput = invalid[2] === 'object' || invalid[3]?.startsWith('{');
    if (!contract.keys.includes(key) || !given(call, key) || says(expected, new RegExp(`^Invalid parameter '${key}'`)))
      return undefined;
    what = wholeInput && key === contract.keys[0] ? 'the whole input object' : `something other than input.${key}`;
  } else {
    // A path error quoting another key's value: that value went where the path goes.
    const quoted = /^(?:Path not found|Not a directory|File not found|Path escapes workspace): (.*)$/.exec(got)?.[1];
    const other = contract.keys.find(
      (k) => k !== 'path' && quoted !== undefined && call.input[k] === quoted && call.input.path !== quoted,
    );
    if (other === undefined || !contract.keys.includes('path')) return undefined;
    key = 'path';
    what = `input.${other}`;
  }
  const text = `${call.tool} gave tools.${method} ${what} as its \`${key}\`: pass the input's fields one by one, in the method's order: ${contract.call}`;
  return { text, cause: `arguments of tools.${method}` };
}

function swappedOldNew({ call, expected, received }: HintContext): string | undefined {
  if (methodOf(call.tool) !== 'strReplace' || !given(call, 'new_str')) return undefined;
  if (!says(expected, /has been edited\.$/) || !says(received, /^No replacement was performed/)) return undefined;
  // The result shows nothing was found to replace, not why: swapped, or changed on the way (unescaped, normalised).
  return 'tools.strReplace found nothing to replace, where the same call edits the file in the reference: pass input.old_str and input.new_str as the model sent them, in that order, unchanged: call tools.strReplace(input.path, input.old_str, input.new_str)';
}

// A key the method reads, and how to tell from the two results that the dispatcher dropped it.
const IGNORED_KEYS: [method: string, key: string, argument: string, dropped: (e: unknown, r: unknown) => boolean][] = [
  [
    'view',
    'view_range',
    'second',
    (e, r) => says(e, /^(Invalid view_range|view_range is not allowed)/) || moreLines(e, r),
  ],
  ['bash', 'timeout', 'second', (e, r) => says(e, TIME_LIMIT) && !says(r, TIME_LIMIT)],
  ['grep', 'glob', 'third', (e, r) => says(e, /^Invalid parameter 'glob'|^No matches found$/) || moreLines(e, r)],
  ['glob', 'path', 'second', (e, r) => (isError(e) ? says(e, /^(Path not found|Not a directory): /) : fromRoot(e, r))],
];

function ignoredKey({ call, expected, received }: HintContext): string | undefined {
  if (isError(received)) return undefined;
  const method = methodOf(call.tool);
  const hit = IGNORED_KEYS.find(
    ([m, key, , dropped]) => m === method && given(call, key) && dropped(expected, received),
  );
  if (hit === undefined) return undefined;
  const [target, key, argument] = hit;
  // An empty value ([] or ""): said as such, since a branch that passes the key may still drop it when it is empty.
  const value = call.input[key];
  if ((Array.isArray(value) && value.length === 0) || value === '') {
    return `tools.${target} answered as if an empty input.${key} (${JSON.stringify(value)}) had not been sent: pass it to tools.${target} as the model sent it, even empty (a test like \`input.${key}?.length\` or \`||\` drops it); tools.${target} answers it with its own error`;
  }
  // The result looks like one without the key; whether it was left out or changed on the way, it does not say.
  return `tools.${target} answered as if input.${key} had not been sent: pass it to tools.${target} as its ${argument} argument, as the model sent it`;
}

// Which method a result came from, by its wording; a bare listing where numbered lines were due is glob's.
function shapeOf({ expected, received }: HintContext): string | undefined {
  if (asOutput(received)?.exit_code !== undefined) return 'bash';
  const content = contentOf(received);
  if (content === undefined) return undefined;
  const shape = SHAPES.find(([, re]) => re.test(content))?.[0];
  if (shape !== undefined || isError(received) || !says(expected, /^\d+: /)) return shape;
  return 'glob';
}

function wrongMethod(ctx: HintContext): Hint | undefined {
  const method = methodOf(ctx.call.tool);
  const shape = shapeOf(ctx);
  if (method === undefined || shape === undefined || shape === method) return undefined;
  const text = `${ctx.call.tool} was routed to the wrong method (its result looks like ${shape}'s): route it to tools.${method}`;
  return { text, cause: `${branchOf(ctx.call.tool)} routed to ${shape}` };
}

// Most specific first: a mistake in the name explains a result better than the result's shape does.
const RECOGNISERS: Recogniser[] = [
  stillTheStub,
  // Whatever else the call got, it was given inside the record of the timer it left.
  leftTimer,
  inheritedName,
  caseInsensitiveName,
  threw,
  unknownWording,
  unwiredName,
  nothingReturned,
  wrongResultKey,
  echoWithoutText,
  unawaited,
  extraIsErrorFalse,
  missingParameter,
  misplacedArgument,
  swappedOldNew,
  ignoredKey,
  wrongMethod,
];

// Names the student's mistake behind the first differing call, or undefined when none is recognised. A hint whose
// words name no more than its mistake is its own cause.
export function hintFor(ctx: HintContext): Hint | undefined {
  if (jsonEqual(ctx.expected, ctx.received)) return undefined;
  for (const recognise of RECOGNISERS) {
    const hint = recognise(ctx);
    if (typeof hint === 'string') return { text: hint, cause: hint };
    if (hint !== undefined) return hint;
  }
  return undefined;
}
