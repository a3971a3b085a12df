// A case's variant: the same calls on renamed files. The letters of every name inside the sandbox, of every
// seeded file's contents and of every string in the calls that refers to them are replaced through one seeded
// permutation (letter-map.ts); tool names, input keys, numbers, and whatever a case uses to provoke an error (a
// path that leaves the sandbox, `..` above its root, a link to /etc and what follows it) stay as written. A
// dispatcher that runs the calls gets the reference's results for the variant; one that returns stored results
// gets the original case's, which name the old files. Pure: the same case and seed give the same variant.
import type { FileSpec } from '../../../course/types.ts';
import type { DispatchCaseData } from '../case.ts';
import { SANDBOX } from '../../../course/sandbox-placeholder.ts';
import { methodOf } from '../../../course/dispatcher-contract.ts';
import { letterMap } from '../../../grade/variants/letter-map.ts';
import { renameCommand, scanCommand } from './rename-command.ts';
import { CannotRename, renameGlob, renamePath, renameRegex, renameText, type Renaming } from './rename-text.ts';

// A variant, or why the case has none (it would prove something else, or has nothing to rename).
export type Variant = { ok: true; data: DispatchCaseData } | { ok: false; why: string };

// The variant of case `name` under `seed`.
export function makeVariant(c: { name: string; data: DispatchCaseData }, seed: number): Variant {
  const { files, calls, description } = c.data;
  try {
    const commands = calls.flatMap((call) => (typeof call.input.command === 'string' ? [call.input.command] : []));
    const scans = commands.map(scanCommand);
    const r: Renaming = {
      map: letterMap(seed, c.name),
      outside: leavingLinks(
        files ?? {},
        scans.flatMap((s) => s.links),
      ),
    };
    const names = new Set(
      [...Object.keys(files ?? {}), ...pathInputs(c.data), ...scans.flatMap((s) => s.paths)].flatMap(segments),
    );
    const renamed: DispatchCaseData = {
      description,
      ...(files === undefined ? {} : { files: renameFiles(files, r) }),
      calls: calls.map((call) => ({
        tool: call.tool,
        input: Object.fromEntries(
          Object.entries(call.input).map(([key, value]) => [key, renameValue(value, kindOf(call.tool, key), r, names)]),
        ),
      })),
    };
    const original: DispatchCaseData = { description, ...(files === undefined ? {} : { files }), calls };
    if (JSON.stringify(renamed) === JSON.stringify(original)) return { ok: false, why: 'nothing in it to rename' };
    return { ok: true, data: renamed };
  } catch (error) {
    if (error instanceof CannotRename) return { ok: false, why: error.message };
    throw error;
  }
}

// What a string at `key` of a call to `tool` is.
type Kind = 'path' | 'glob' | 'regex' | 'command' | 'text';

function kindOf(tool: string, key: string): Kind {
  const method = methodOf(tool);
  if (key === 'path') return 'path';
  if (key === 'command') return 'command';
  if (key === 'glob') return 'glob';
  if (key === 'pattern') return method === 'grep' ? 'regex' : method === 'glob' ? 'glob' : 'text';
  return 'text';
}

function renameValue(value: unknown, kind: Kind, r: Renaming, names: ReadonlySet<string>): unknown {
  if (typeof value === 'string') {
    if (kind === 'path') return renamePath(value, r);
    if (kind === 'glob') return renameGlob(value, r);
    if (kind === 'regex') return renameRegex(value, r);
    if (kind === 'command') return renameCommand(value, r, names);
    return renameText(value, r);
  }
  if (Array.isArray(value)) return value.map((v) => renameValue(v, kind, r, names));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameValue(v, kind, r, names)]));
  }
  return value;
}

// The seeded files renamed, in the same order (seeding order decides which links a later file goes through).
function renameFiles(files: Record<string, FileSpec>, r: Renaming): Record<string, FileSpec> {
  return Object.fromEntries(
    Object.entries(files).map(([path, spec]) => {
      const name = renamePath(path, r);
      if (typeof spec === 'string') return [name, renameText(spec, r)];
      if ('base64' in spec) return [name, { base64: renameBytes(spec.base64, r) }];
      return [name, { symlink: renameTarget(spec.symlink, path, r) }];
    }),
  );
}

// A link's target, relative to the link's directory (or absolute), renamed as the path it leads to is.
function renameTarget(target: string, link: string, r: Renaming): string {
  const dir = link.split('/').slice(0, -1);
  if (dir.length === 0 || target.startsWith('/') || target.startsWith(SANDBOX)) return renamePath(target, r);
  return renamePath([...dir, target].join('/'), r)
    .split('/')
    .slice(dir.length)
    .join('/');
}

// A file's bytes with every ASCII letter renamed: a letter's byte never occurs inside a multi-byte UTF-8 character,
// and a NUL, which makes a file binary to the tools, stays one.
function renameBytes(base64: string, r: Renaming): string {
  const bytes = Buffer.from(base64, 'base64');
  for (const [k, b] of bytes.entries()) {
    const ch = String.fromCharCode(b);
    if (/[A-Za-z]/.test(ch)) bytes[k] = r.map(ch).charCodeAt(0);
  }
  return bytes.toString('base64');
}

// The links the case makes that lead out of the sandbox, by their path in it: a seeded {symlink} or a Bash
// `ln -s` whose target is absolute elsewhere or climbs above the root.
function leavingLinks(files: Record<string, FileSpec>, made: { target: string; name: string }[]): Set<string> {
  const links = [
    ...Object.entries(files).flatMap(([name, spec]) =>
      typeof spec === 'object' && 'symlink' in spec ? [{ target: spec.symlink, name }] : [],
    ),
    ...made,
  ];
  const leaving = links.filter((l) => leaves(l.target, l.name.split('/').slice(0, -1)));
  return new Set(leaving.map((l) => normalise(l.name)));
}

// Whether a link at `dir` (its directory's names) to `target` points out of the sandbox.
function leaves(target: string, dir: string[]): boolean {
  if (target.startsWith(SANDBOX)) return !(target === SANDBOX || target.startsWith(`${SANDBOX}/`));
  if (target.startsWith('/')) return true;
  const at = [...dir];
  for (const name of target.split('/')) {
    if (name === '..') {
      if (at.length === 0) return true;
      at.pop();
    } else if (name !== '' && name !== '.') at.push(name);
  }
  return false;
}

// A path in the sandbox as the case spells it, without `<sandbox>/`, `./` or a trailing slash.
function normalise(path: string): string {
  const inside = path.startsWith(`${SANDBOX}/`) ? path.slice(SANDBOX.length + 1) : path;
  return inside
    .split('/')
    .filter((n) => n !== '' && n !== '.')
    .join('/');
}

// Every string the calls give as a path or a glob.
function pathInputs(data: DispatchCaseData): string[] {
  return data.calls.flatMap((call) =>
    Object.entries(call.input).flatMap(([key, value]) =>
      typeof value === 'string' && ['path', 'glob', 'pattern'].includes(key) ? [value] : [],
    ),
  );
}

// The names in a path that could be the case's files: not `.`, `..`, `<sandbox>` or empty.
function segments(path: string): string[] {
  return normalise(path)
    .split('/')
    .filter((n) => n !== '..' && /[A-Za-z]/.test(n));
}
