// Codex CLI's shell tools as the course's Bash: the line an argv runs, its working directory, what is dropped.
import { describe, expect, it } from 'vitest';
import { mapCall } from '../../../src/record/map/map-call.ts';
import type { MappedCall } from '../../../src/record/record-types.ts';
import { call } from '../calls.ts';

const S = '<sandbox>';
const mapped = (c: ReturnType<typeof call>): MappedCall => {
  const m = mapCall(c, { subdir: '' });
  if ('drop' in m) throw new Error(`dropped: ${m.drop}`);
  return m;
};
const dropped = (c: ReturnType<typeof call>): string => {
  const m = mapCall(c, { subdir: '' });
  return 'drop' in m ? m.drop : `mapped to ${m.call.tool}`;
};

describe("Codex's shell tools", () => {
  it.each([
    [{ command: ['bash', '-lc', 'ls | head'] }, 'ls | head'],
    [{ command: ['wc', '-l', 'a b.txt'] }, "wc -l 'a b.txt'"],
    [{ command: ['bash', '-lc', 'ls'], workdir: S }, 'ls'],
    [{ command: ['bash', '-lc', 'ls'], workdir: `${S}/src` }, `cd ${S}/src && ls`],
  ])('shell %j -> %j', (input, command) => {
    expect(mapped(call('shell', input, 'x')).call.input.command).toBe(command);
  });

  it('exec_command, a local_shell_call and the exec tool are Bash too, timeout_ms the timeout', () => {
    expect(mapped(call('exec_command', { cmd: 'cat a' }, 'x')).call).toEqual({
      tool: 'Bash',
      input: { command: 'cat a' },
    });
    expect(mapped(call('local_shell', { command: ['ls'], timeout_ms: 500 }, 'x')).call.input).toEqual({
      command: 'ls',
      timeout: 500,
    });
    expect(mapped(call('exec', { input: 'echo hi' }, 'x')).call.input.command).toBe('echo hi');
  });

  it('drops a command run outside the session, and one left running', () => {
    expect(dropped(call('shell', { command: ['ls'], workdir: '/etc' }, 'x'))).toBe(
      "Bash after a cd out of the session's directory",
    );
    expect(
      dropped(call('exec_command', { cmd: 'serve' }, { content: 'Process running', details: { running: true } })),
    ).toBe('Bash in the background');
  });
});

describe("Codex 0.5x's shell_command", () => {
  it.each([
    [{ command: 'ls | head' }, 'ls | head'],
    [{ command: 'ls', workdir: S }, 'ls'],
    [{ command: 'ls', workdir: `${S}/src/` }, `cd ${S}/src && ls`],
    [{ command: 'ls', workdir: 'src' }, `cd ${S}/src && ls`],
    [{ command: 'ls', workdir: 'src/../lib' }, `cd ${S}/lib && ls`],
    [{ command: '# list\nls', workdir: '.' }, '# list\nls'],
  ])('shell_command %j -> %j (the line as sent, workdir its directory)', (input, command) => {
    expect(mapped(call('shell_command', input, 'x')).call.input.command).toBe(command);
  });

  it('drops a workdir outside the session, relative or absolute', () => {
    for (const workdir of ['/home/dana/backup', '..', 'src/../../x', '~/x'])
      expect(dropped(call('shell_command', { command: 'ls', workdir }, 'x'))).toBe(
        "Bash after a cd out of the session's directory",
      );
  });
});
