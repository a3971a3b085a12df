// The paths a seed may name: exactly those program.ts seeds (a file below the sandbox).
import { describe, expect, it } from 'vitest';
import { isSeedPath } from '../../src/course/seed-path.ts';

describe('isSeedPath', () => {
  it.each(['a.txt', 'src/a.ts', '.env', 'a/.b', '..x', 'Output too large (40.1KB)'])('%j: yes', (path) => {
    expect(isSeedPath(path)).toBe(true);
  });
  it.each(['', '.', 'src/', 'src/./a', 'a//b', '/etc/x', 'C:\\x', 'C:/x', '\\x', '../x', 'a/..', 'a\0'])(
    '%j: no',
    (path) => {
      expect(isSeedPath(path)).toBe(false);
    },
  );
});
