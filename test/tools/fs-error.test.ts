import { describe, expect, it } from 'vitest';
import { fsFailure } from '../../src/tools/fs-error.ts';

// Errors as fs raises them; running as root, permission errors cannot be provoked on real files.
const errno = (code: string) => Object.assign(new Error(`${code}: something, open '/abs/p'`), { code });

describe('fsFailure', () => {
  const rows: Array<{ error: unknown; wording?: Record<string, string>; expected: string }> = [
    { error: errno('ENOENT'), expected: 'File not found: p' },
    { error: errno('ENOTDIR'), expected: 'File not found: p' },
    { error: errno('EISDIR'), expected: 'Is a directory: p' },
    { error: errno('EACCES'), expected: 'Permission denied: p' },
    { error: errno('EPERM'), expected: 'Permission denied: p' },
    { error: errno('ELOOP'), expected: 'Too many levels of symbolic links: p' },
    { error: errno('ENAMETOOLONG'), expected: 'File name too long: p' },
    { error: errno('EIO'), expected: 'Cannot access p: EIO' },
    { error: new Error('odd'), expected: 'Cannot access p: odd' },
    { error: errno('ENOENT'), wording: { ENOENT: 'Path not found' }, expected: 'Path not found: p' },
  ];
  it.each(rows)('$expected', ({ error, wording, expected }) => {
    expect(fsFailure(error, 'p', wording)).toEqual({ content: expected, is_error: true });
  });
});
