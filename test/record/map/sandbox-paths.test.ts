// The recording machine's paths in a case's terms: the session's directory as <sandbox> wherever it appears, and
// what stays outside found.
import { describe, expect, it } from 'vitest';
import { SANDBOX_PLACEHOLDER } from '../../../program.ts';
import { SANDBOX } from '../../../src/record/map/sandbox-placeholder.ts';
import {
  harnessPath,
  insideSandbox,
  outsidePaths,
  sandboxer,
  subdirectory,
} from '../../../src/record/map/sandbox-paths.ts';

describe('sandboxer', () => {
  const toSandbox = sandboxer('/home/ada/proj');
  it.each([
    ['/home/ada/proj/src/a.ts', '<sandbox>/src/a.ts'],
    ['/home/ada/proj', '<sandbox>'],
    ['cd /home/ada/proj && cat /home/ada/proj/a', 'cd <sandbox> && cat <sandbox>/a'],
    [
      "cat <<'EOF' > /home/ada/proj/x.sh\n#!/bin/sh\nls /home/ada/proj/\nEOF",
      "cat <<'EOF' > <sandbox>/x.sh\n#!/bin/sh\nls <sandbox>/\nEOF",
    ],
    ['"/home/ada/proj/a b.txt"', '"<sandbox>/a b.txt"'],
    ['/home/ada/project/a', '/home/ada/project/a'],
    ['/home/ada/proj-2/a', '/home/ada/proj-2/a'],
    ['/home/ada/proj.bak', '/home/ada/proj.bak'],
    ['/home/ada/projects', '/home/ada/projects'],
  ])('%j -> %j', (text, expected) => {
    expect(toSandbox(text)).toBe(expected);
  });

  it("maps macOS's /private twin of a /tmp directory too", () => {
    expect(sandboxer('/tmp/tmpabc')('/private/tmp/tmpabc/a and /tmp/tmpabc/b')).toBe('<sandbox>/a and <sandbox>/b');
  });

  it('leaves text alone when the session has no directory', () => {
    expect(sandboxer(undefined)('/home/ada/proj/a')).toBe('/home/ada/proj/a');
  });

  it("is program.ts's placeholder", () => {
    expect(SANDBOX).toBe(SANDBOX_PLACEHOLDER);
  });
});

describe('subdirectory', () => {
  it.each([
    ['/home/ada/proj', ''],
    ['/home/ada/proj/', ''],
    ['/home/ada/proj/assets', 'assets'],
    ['/home/ada/proj/assets/css', 'assets/css'],
    ['/home/ada/project', undefined],
    ['/tmp', undefined],
  ])('%s -> %j', (cwd, expected) => {
    expect(subdirectory(cwd, '/home/ada/proj')).toBe(expected);
  });
});

describe("harnessPath: Claude Code's own files, the session's directory dash-encoded in them", () => {
  it.each([
    [
      'tail /tmp/claude-1000/-home-ada-proj/tasks/b7b23b2.output',
      '/tmp/claude-1000/-home-ada-proj/tasks/b7b23b2.output',
    ],
    ['ls ~/.claude/projects/-home-ada-proj/', '~/.claude/projects/-home-ada-proj/'],
    ['cat /home/ada/.claude/settings.json', '/home/ada/.claude/settings.json'],
    ['cat <sandbox>/.claude/settings.json', undefined],
    ['ls /tmp/claude', undefined],
  ])('%j -> %j', (text, expected) => {
    expect(harnessPath(text)).toBe(expected);
  });
});

describe('outsidePaths', () => {
  it.each([
    ['ls <sandbox>/src && cat <sandbox>/a > <sandbox>/b', []],
    ['grep -r x . 2>/dev/null | head -3', []],
    ['/usr/bin/env python3 -c 1; cat /etc/hosts', []],
    ['echo x > /tmp/out.txt', ['/tmp/out.txt']],
    ['cat /home/ada/.ssh/id_rsa', ['/home/ada/.ssh/id_rsa']],
    ['ls ~/Downloads', ['~/Downloads']],
    ['echo $HOME', ['$HOME']],
    ['curl https://example.com/a/b', []],
    ["sed 's/a/b/' x", []],
    ['cp a /var/tmp/b', ['/var/tmp/b']],
  ])('%j -> %j', (command, expected) => {
    expect(outsidePaths(command)).toEqual(expected);
  });
});

describe('insideSandbox', () => {
  it.each([
    ['<sandbox>', true],
    ['<sandbox>/a/../b', true],
    ['<sandbox>/../x', false],
    ['a/b', true],
    ['a/../../b', false],
    ['/etc/passwd', false],
    ['~/x', false],
    ['<sandbox>-other/a', false],
  ])('%s -> %s', (path, expected) => {
    expect(insideSandbox(path)).toBe(expected);
  });
});
