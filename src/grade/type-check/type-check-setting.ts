// What the course says its type check counts for, from its package.json (`"theinference": { "typecheck": … }`):
// `note` (the default) shows type errors beside the verdict without failing it, `fail` fails the run on one, `off`
// runs no type check. A grade is the cases' unless the course says so: a type error a student can still run is
// what `npm run typecheck` tells them, and many courses let a student get a case green first.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError } from '../../errors.ts';
import type { TypeCheckSetting } from '../types.ts';

const TYPE_CHECK_SETTINGS: readonly TypeCheckSetting[] = ['note', 'fail', 'off'];

// The setting of the course directory `dir`: `note` without a package.json or without the key; a HarnessError
// naming the values for any other value.
export async function typeCheckSetting(dir: string): Promise<TypeCheckSetting> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  } catch {
    return 'note';
  }
  const own = (manifest as { theinference?: unknown } | null)?.theinference;
  const value = typeof own === 'object' && own !== null ? (own as { typecheck?: unknown }).typecheck : undefined;
  if (value === undefined) return 'note';
  if (TYPE_CHECK_SETTINGS.includes(value as TypeCheckSetting)) return value as TypeCheckSetting;
  const shown = JSON.stringify(value)?.slice(0, 40) ?? String(value);
  throw new HarnessError(
    'BAD_FLAG',
    `package.json's "theinference": { "typecheck": ${shown} } is not a setting: give "note" (type errors shown, not graded), "fail" (a type error fails the run) or "off".`,
  );
}
