// The pieces every mapping of a recorded call is made of: the mapping's shape, the input with keys renamed or kept
// as sent, paths relative to the sandbox, the directory a search runs in. Shared by map-call.ts and map-grep.ts.
import type { Call } from '../../course/types.ts';
import type { CheckSpec } from '../record-types.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// A call the course cannot replay, and why.
export type Dropped = { drop: string };

// A mapping in progress: the course call, and the original keys it used or left out.
export type Mapping = {
  call: Call;
  renamedKeys: Record<string, string>;
  droppedKeys: Record<string, unknown>;
  check: CheckSpec;
};

// What the call's input alone does not say: the directory the agent was in, relative to the session's start
// ('' for the same, undefined for outside it), and whether Claude Code wrote the results (its Grep words them its
// own way; an agent recorded from the API, the course's own above all, prints the course's `file:N: text`), and
// whether pi wrote them (its tools share lower-case names with the lesson's agent: map-pi.ts).
export type MapContext = { subdir: string | undefined; claudeCode?: boolean; pi?: boolean };

// The input as sent, under the same name: it already speaks the course's vocabulary.
export function keep(tool: string, input: Record<string, unknown>, check: CheckSpec): Mapping {
  const renamedKeys = Object.fromEntries(Object.keys(input).map((k) => [k, k]));
  return { call: { tool, input: { ...input } }, renamedKeys, droppedKeys: {}, check };
}

// The input with keys renamed; keys not in `keys` are dropped (and kept in the source).
export function rename(
  tool: string,
  input: Record<string, unknown>,
  keys: Record<string, string>,
  check: CheckSpec,
): Mapping {
  const out: Record<string, unknown> = {};
  const renamedKeys: Record<string, string> = {};
  const droppedKeys: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const to = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (to === undefined) droppedKeys[key] = value;
    else {
      out[to] = value;
      renamedKeys[key] = to;
    }
  }
  return { call: { tool, input: out }, renamedKeys, droppedKeys, check };
}

// The directory a Glob or Grep searches, sandbox-relative: its `path`, else where the agent was (made explicit
// in the input when that is not the session's start).
export function defaultPath(input: Record<string, unknown>, context: MapContext): string {
  if (typeof input.path === 'string') return sandboxRelative(input.path, context.subdir ?? '');
  if (context.subdir !== undefined && context.subdir !== '') input.path = `${SANDBOX}/${context.subdir}`;
  return context.subdir ?? '';
}

// A path input relative to the sandbox root: `<sandbox>/a/b` -> `a/b`, `b` in subdirectory `a` -> `a/b`.
export function sandboxRelative(path: string, subdir: string): string {
  const plain =
    path === SANDBOX
      ? ''
      : path.startsWith(`${SANDBOX}/`)
        ? path.slice(SANDBOX.length + 1)
        : subdir === ''
          ? path
          : `${subdir}/${path}`;
  const parts: string[] = [];
  for (const part of plain.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

// An object's own keys, or undefined for anything else.
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
