// The dispatcher contract of docs/tools.md, in one place: which names reach which Tools method, the input keys
// each method reads and in which order, what the names outside the contract are, and the names a key is commonly
// misread under. The hints, the probe's inputs (probe-calls.ts) and the findings (find-mistakes.ts) read it.

// One argument of a method: the input key it is read from, or keys tried in turn (`input.a ?? input.b`).
export type ArgumentSource = string | readonly string[];

// One Tools method: the names it answers to, where each argument comes from (first argument first), the keys it
// cannot do without, the input keys it reads (`keys`, first argument first), the call that reads them in order,
// and the section of docs/tools.md that words its results.
export type MethodContract = {
  names: string[];
  args: ArgumentSource[];
  required: string[];
  keys: string[];
  call: string;
  section: string;
};

function method(names: string[], name: string, args: ArgumentSource[], required: string[], section: string) {
  const keys = args.flatMap((a) => (typeof a === 'string' ? [a] : [...a]));
  return { names, args, required, keys, call: `tools.${name}(${args.map(argumentText).join(', ')})`, section };
}

// How the contract reads one argument: `input.path`, `input.insert_text ?? input.new_str`.
export function argumentText(source: ArgumentSource): string {
  return typeof source === 'string' ? `input.${source}` : source.map((k) => `input.${k}`).join(' ?? ');
}

// Every method, by its name on `Tools`.
export const METHODS: Record<string, MethodContract> = {
  view: method(['Read', 'view'], 'view', ['path', 'view_range'], ['path'], 'view(path, viewRange?)'),
  create: method(['Write', 'create'], 'create', ['path', 'file_text'], ['path', 'file_text'], 'create(path, fileText)'),
  strReplace: method(
    ['Edit', 'str_replace'],
    'strReplace',
    ['path', 'old_str', 'new_str'],
    ['path', 'old_str'],
    'strReplace(path, oldStr, newStr?)',
  ),
  insert: method(
    ['insert'],
    'insert',
    ['path', 'insert_line', ['insert_text', 'new_str']],
    ['path', 'insert_line', 'insert_text'],
    'insert(path, insertLine, text)',
  ),
  glob: method(['Glob', 'glob'], 'glob', ['pattern', 'path'], ['pattern'], 'glob(pattern, path?)'),
  grep: method(['Grep', 'grep'], 'grep', ['pattern', 'path', 'glob'], ['pattern'], 'grep(pattern, path?, glob?)'),
  bash: method(['Bash', 'bash'], 'bash', ['command', 'timeout'], ['command'], 'bash(command, timeoutMs?)'),
};

// The one name that reaches no method: it answers `{ content: input.text }`.
export const ECHO = 'echo';
// The key echo reads.
export const ECHO_KEY = 'text';

// Every tool name the dispatcher routes.
export const KNOWN_NAMES = [...Object.values(METHODS).flatMap((m) => m.names), ECHO];

// What every name outside the contract gets, to the letter.
export function unknownAnswer(name: string): { content: string; is_error: true } {
  return { content: `unknown tool: ${name}`, is_error: true };
}

// What a Tools method takes an optional key left out as (docs/tools.md): a dispatcher passing this same value in
// its place does what the contract does; any other default changes the call.
export const OPTIONAL_DEFAULTS: Record<string, unknown> = { path: '.', new_str: '', timeout: 120_000 };

// What kind of value each input key holds: a text, a whole number, or a [start, end] pair.
export const KEY_KINDS: Record<string, 'text' | 'number' | 'range'> = {
  path: 'text',
  view_range: 'range',
  file_text: 'text',
  old_str: 'text',
  new_str: 'text',
  insert_line: 'number',
  insert_text: 'text',
  pattern: 'text',
  glob: 'text',
  command: 'text',
  timeout: 'number',
  text: 'text',
};

// Names a key is misread under: its camelCase, Claude Code's and the lesson's names for the same thing (Claude
// Code's Read and the lesson's read_file take `offset` and `limit` where view takes a range).
export const MISREAD_KEYS: Record<string, string[]> = {
  path: ['file_path', 'filePath', 'filename'],
  view_range: ['viewRange', 'range', 'offset', 'limit'],
  file_text: ['fileText', 'content'],
  old_str: ['oldStr', 'old_string', 'old_text'],
  new_str: ['newStr', 'new_string', 'new_text'],
  insert_line: ['insertLine', 'line'],
  insert_text: ['insertText', 'text'],
  pattern: ['query', 'regex'],
  glob: ['include', 'file_glob'],
  command: ['cmd'],
  timeout: ['timeoutMs', 'timeout_ms'],
  text: ['message', 'content'],
};

// The classes of names outside the contract, each a mistake of its own when it reaches a method: the members of
// Object.prototype (a plain-object map finds them), a known name in another case, a known name with spaces
// around it, and any other name.
export type NameClass = 'prototype' | 'case' | 'spaced' | 'other';

// Names outside the contract the probe sends, a few of each class.
export const UNKNOWN_NAMES: string[] = [
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'read',
  'READ',
  'View',
  'BASH',
  'Str_Replace',
  'Bash ',
  ' Read',
  '',
  'Search',
  'read_file',
  'write_file',
  'edit_file',
  'strReplace',
  'str-replace',
  // Anthropic's text editor tool, which takes a `command` where this contract has a name per method.
  'str_replace_based_edit_tool',
  // Claude Code's other tools, which a student who knows it may wire beside the contract's names.
  'LS',
  'MultiEdit',
  'NotebookEdit',
  'TodoWrite',
  'WebFetch',
  'Task',
];

// The name outside the contract that shows what the default branch does: any other name gets the same, itself
// written where this one is.
export const DEFAULT_PROBE_NAME = 'Search';

// The class of a name outside the contract (undefined for a known one).
export function nameClass(name: string): NameClass | undefined {
  if (KNOWN_NAMES.includes(name)) return undefined;
  if (name in Object.prototype) return 'prototype';
  if (KNOWN_NAMES.some((n) => n.toLowerCase() === name.toLowerCase())) return 'case';
  if (name !== name.trim() && KNOWN_NAMES.includes(name.trim())) return 'spaced';
  return 'other';
}

// The method a tool name reaches, or undefined for echo and unknown names.
export function methodOf(name: string): string | undefined {
  return Object.keys(METHODS).find((m) => METHODS[m]?.names.includes(name));
}

// The dispatcher's branch a name takes: its method's (both aliases share one), or the name itself.
export function branchOf(name: string): string {
  const method = methodOf(name);
  return method === undefined ? `the branch of ${JSON.stringify(name)}` : `tools.${method}'s branch`;
}

// The key an argument is read from for this input: the first of its keys the input sends (not undefined or null),
// else its last.
export function keyFor(source: ArgumentSource, input: Record<string, unknown>): string {
  if (typeof source === 'string') return source;
  return source.find((k) => input[k] !== undefined && input[k] !== null) ?? source[source.length - 1] ?? '';
}

// A throw that says the branch called a method Tools does not have (`TypeError: tools.read is not a function`): the
// name it called, and the method the tool name reaches; undefined for any other throw.
export function missingMethod(message: string, tool: string): { called: string; method: string } | undefined {
  const called = /^TypeError: (?:[\w$]+\.)+([\w$]+) is not a function/.exec(message)?.[1];
  const method = methodOf(tool);
  if (called === undefined || method === undefined || called in METHODS) return undefined;
  return { called, method };
}

// What to say of that throw: the method missing, by its name, and the one to call.
export function missingMethodText(missing: { called: string; method: string }, names: string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  const who =
    quoted.length <= 1 ? `${quoted[0] ?? ''} calls` : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)} call`;
  return `${who} tools.${missing.called}, a method Tools does not have, so every call throws (TypeError: … tools.${missing.called} is not a function): call ${METHODS[missing.method]!.call}. \`npm run typecheck\` names it too (TS2339: Property '${missing.called}' does not exist on type 'Tools')`;
}

// The record of a call that left a timer running: the driver's (src/course/left-timer.ts, which the sandbox shows
// where it hides this table).
export { LEFT_TIMER, leftTimerOf } from './left-timer.ts';
