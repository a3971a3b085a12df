import { fail } from './output.ts';
import type { ToolOutput } from './types.ts';

const DEFAULT_WORDING: Record<string, string> = {
  ENOENT: 'File not found',
  ENOTDIR: 'File not found',
  EISDIR: 'Is a directory',
  EACCES: 'Permission denied',
  EPERM: 'Permission denied',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
};

// Turns a filesystem error into the error result a tool returns, worded `Prefix: <path>` by its code;
// `wording` overrides the prefix per code for tools that say it differently (glob's "Path not found").
export function fsFailure(error: unknown, path: string, wording: Record<string, string> = {}): ToolOutput {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const prefix = code === undefined ? undefined : (wording[code] ?? DEFAULT_WORDING[code]);
  if (prefix !== undefined) return fail(`${prefix}: ${path}`);
  return fail(`Cannot access ${path}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
}
