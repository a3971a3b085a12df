// The recording machine's paths in a case's terms: the session's directory as <sandbox> wherever it appears, and
// what stays outside found.
import { describe, expect, it } from 'vitest';
import {
  harnessPath,
  insideSandbox,
  outsidePaths,
  sandboxer,
  subdirectory,
} from '../../../src/record/map/sandbox-paths.ts';
import { prepareSteps } from '../../../src/record/map/prepare-steps.ts';
import { makeRedactor } from '../../../src/record/map/redact.ts';
import { call, transcript } from '../calls.ts';

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

  it('maps the plain spelling when the session names its directory as /private/var (a text without /private)', () => {
    const toSandbox = sandboxer('/private/var/folders/xy/T/proj');
    expect(toSandbox('cat /var/folders/xy/T/proj/a.ts')).toBe('cat <sandbox>/a.ts');
  });

  it('leaves text alone when the session has no directory', () => {
    expect(sandboxer(undefined)('/home/ada/proj/a')).toBe('/home/ada/proj/a');
  });
});

describe('sandboxer, on a Windows session', () => {
  const toSandbox = sandboxer('C:\\Users\\alex\\shop');
  it.each([
    ['C:\\Users\\alex\\shop\\src\\a.ts', '<sandbox>/src/a.ts'],
    ['c:\\users\\ALEX\\Shop\\src', '<sandbox>/src'],
    ['C:/Users/alex/shop/docs/x.md', '<sandbox>/docs/x.md'],
    ['cd /c/Users/alex/shop && ls src', 'cd <sandbox> && ls src'],
    ['C:\\Users\\alex\\shop\\src\\a.ts:4:  return x;', '<sandbox>/src/a.ts:4:  return x;'],
    ['The file C:\\Users\\alex\\shop\\a.ts has been updated.', 'The file <sandbox>/a.ts has been updated.'],
    ['C:\\Users\\alex\\shopping\\a.ts', 'C:\\Users\\alex\\shopping\\a.ts'],
    ['D:\\Users\\alex\\shop\\a.ts', 'D:\\Users\\alex\\shop\\a.ts'],
    ['ls C:\\\\Users\\\\alex\\\\shop\\\\src', 'ls <sandbox>/src'],
  ])('%j -> %j', (text, expected) => {
    expect(toSandbox(text)).toBe(expected);
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

  it.each([
    ['/private/var/folders/xy/T/proj', '/var/folders/xy/T/proj', ''],
    ['/private/var/folders/xy/T/proj/src', '/var/folders/xy/T/proj', 'src'],
    ['/var/folders/xy/T/proj/src', '/private/var/folders/xy/T/proj', 'src'],
    ['/private/var/folders/xy/T/project', '/var/folders/xy/T/proj', undefined],
    ['/private/home/ada/proj', '/home/ada/proj', undefined],
  ])("macOS's /private alias: %s in a session at %s -> %j", (cwd, session, expected) => {
    expect(subdirectory(cwd, session)).toBe(expected);
  });

  it.each([
    ['C:\\Users\\alex\\shop', ''],
    ['c:\\users\\alex\\shop\\', ''],
    ['C:\\Users\\alex\\shop\\assets\\css', 'assets/css'],
    ['C:\\Users\\alex\\shopping', undefined],
    ['D:\\work', undefined],
  ])('on Windows, %s -> %j', (cwd, expected) => {
    expect(subdirectory(cwd, 'C:\\Users\\alex\\shop')).toBe(expected);
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
    [
      'C:\\Users\\alex\\.claude\\projects\\C--Users-alex-shop\\memory\\a.md',
      'C:\\Users\\alex\\.claude\\projects\\C--Users-alex-shop\\memory\\a.md',
    ],
    ['cat /c/Users/alex/.claude/settings.json', '/c/Users/alex/.claude/settings.json'],
    ['type %USERPROFILE%\\.claude\\settings.json', '%USERPROFILE%\\.claude\\settings.json'],
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
    ['type D:\\data\\x.csv', ['D:\\data\\x.csv']],
    ['cat C:/Windows/win.ini', ['C:/Windows/win.ini']],
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
    ['D:/other/a.ts', false],
  ])('%s -> %s', (path, expected) => {
    expect(insideSandbox(path)).toBe(expected);
  });
});

describe('a macOS session naming its directory both as /var/folders/… and /private/var/folders/…', () => {
  const SESSION = '/var/folders/xy/T/proj';
  const REAL = `/private${SESSION}`;
  const steps = prepareSteps(
    transcript(
      [
        call('Read', { file_path: `${REAL}/a.ts` }, 'x', { cwd: SESSION }),
        call('Bash', { command: 'ls' }, 'a.ts', { cwd: `${REAL}/src` }),
        call('Bash', { command: `cat ${SESSION}/a.ts` }, 'x', { cwd: REAL }),
      ],
      { cwd: SESSION },
    ),
    makeRedactor({ users: [], homes: [], patterns: [] }),
  );

  it('keeps every call: none is outside the session', () => {
    expect(steps.map((s) => s.drop)).toEqual([undefined, undefined, undefined]);
    expect(steps.map((s) => s.subdir)).toEqual(['', 'src', '']);
  });

  it('names both spellings <sandbox>', () => {
    expect(steps[0]?.imported.input).toEqual({ file_path: '<sandbox>/a.ts' });
    expect(steps[2]?.imported.input).toEqual({ command: 'cat <sandbox>/a.ts' });
  });
});
