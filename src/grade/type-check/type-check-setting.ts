// What the course says its type check counts for, from its package.json (`"theinference": { "typecheck": … }`):
// `note` (the default) shows type errors beside the verdict without failing it, `fail` fails the run on one, `off`
// runs no type check. A grade is the cases' unless the course says so: a type error a student can still run is
// what `npm run typecheck` tells them, and many courses let a student get a case green first.
import { join } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { readAsData } from '../../course/read-as-data.ts';
import type { TypeCheckSetting } from '../types.ts';

// A package.json past this is not a course's (as the course check reads it).
const MAX_MANIFEST_BYTES = 1024 * 1024;

const TYPE_CHECK_SETTINGS: readonly TypeCheckSetting[] = ['note', 'fail', 'off'];

// The setting of the course directory `dir`: its package.json's; without the key, THEINFERENCE_TYPECHECK's in
// `env` (a CI job's default, the test suite's own); else `note`. A HarnessError naming the values for any other
// value in package.json.
export async function typeCheckSetting(dir: string, env: NodeJS.ProcessEnv = {}): Promise<TypeCheckSetting> {
  const byDefault = TYPE_CHECK_SETTINGS.find((s) => s === env.THEINFERENCE_TYPECHECK) ?? 'note';
  // Read as data: a FIFO or a device at its name is never opened (the course's own check says what it is).
  const read = await readAsData(join(dir, 'package.json'), MAX_MANIFEST_BYTES);
  if (typeof read === 'string') return byDefault;
  let manifest: unknown;
  try {
    manifest = JSON.parse(read.data.toString('utf8'));
  } catch {
    return byDefault;
  }
  const own = (manifest as { theinference?: unknown } | null)?.theinference;
  const value = typeof own === 'object' && own !== null ? (own as { typecheck?: unknown }).typecheck : undefined;
  if (value === undefined) return byDefault;
  if (TYPE_CHECK_SETTINGS.includes(value as TypeCheckSetting)) return value as TypeCheckSetting;
  const shown = JSON.stringify(value)?.slice(0, 40) ?? String(value);
  throw new HarnessError(
    'BAD_FLAG',
    `package.json's "theinference": { "typecheck": ${shown} } is not a setting: give "note" (type errors shown, not graded), "fail" (a type error fails the run) or "off".`,
  );
}
