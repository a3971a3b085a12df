// pi's tools in the course's vocabulary, told by the transcript's format (their names are the lesson agent's too),
// and what is dropped and why.
import { describe, expect, it } from 'vitest';
import { mapCall } from '../../../src/record/map/map-call.ts';
import type { MapContext } from '../../../src/record/map/call-input.ts';
import { call } from '../calls.ts';

const S = '<sandbox>';
const PI: MapContext = { subdir: '', pi: true };
const mapped = (c: ReturnType<typeof call>, context = PI) => {
  const m = mapCall(c, context);
  if ('drop' in m) throw new Error(`dropped: ${m.drop}`);
  return m;
};
const dropped = (c: ReturnType<typeof call>, context = PI): string => {
  const m = mapCall(c, context);
  return 'drop' in m ? m.drop : `mapped to ${m.call.tool}`;
};
const shown = (start: number, end: number, total: number) => ({
  content: 'x',
  details: { shown: { start, end, total } },
});

describe("pi's tools", () => {
  it.each([
    ['read', { path: `${S}/a.ts` }, 'x', 'Read', { path: `${S}/a.ts` }],
    [
      'read',
      { path: 'a.ts', offset: 11, limit: 10 },
      shown(11, 20, 40),
      'Read',
      { path: 'a.ts', view_range: [11, 20] },
    ],
    [
      'read',
      { path: 'a.ts', offset: 31, limit: 10 },
      shown(31, 40, 40),
      'Read',
      { path: 'a.ts', view_range: [31, -1] },
    ],
    ['read', { path: 'a.ts', offset: 5 }, 'x', 'Read', { path: 'a.ts', view_range: [5, -1] }],
    ['read', { path: 'a.ts', limit: 500 }, 'x', 'Read', { path: 'a.ts' }],
    ['bash', { command: 'ls' }, 'a\n', 'Bash', { command: 'ls' }],
    ['bash', { command: 'sleep 1', timeout: 30 }, '', 'Bash', { command: 'sleep 1', timeout: 30_000 }],
    ['edit', { path: 'a.ts', oldText: 'a', newText: 'b' }, 'ok', 'Edit', { path: 'a.ts', old_str: 'a', new_str: 'b' }],
    ['write', { path: 'a.ts', content: 'x' }, 'ok', 'Write', { path: 'a.ts', file_text: 'x' }],
  ])('%s %j -> %s', (name, input, result, tool, courseInput) => {
    expect(mapped(call(name, input, result)).call).toEqual({ tool, input: courseInput });
  });

  it('keeps the original keys in the source: offset and limit became the range', () => {
    const m = mapped(call('read', { path: 'a.ts', offset: 11, limit: 10 }, shown(11, 20, 40)));
    expect(m).toMatchObject({
      originalTool: 'read',
      renamedKeys: { path: 'path', offset: 'view_range', limit: 'view_range' },
    });
  });

  it('starts a command in the directory the session was in', () => {
    expect(mapped(call('bash', { command: 'ls' }, 'a\n'), { subdir: 'src', pi: true }).call.input).toEqual({
      command: `cd ${S}/src && ls`,
    });
    expect(dropped(call('bash', { command: 'ls' }, 'a\n'), { subdir: undefined, pi: true })).toBe(
      "Bash after a cd out of the session's directory",
    );
  });

  it.each([
    [
      'bash',
      { command: 'seq 5000' },
      '4001\n\n[Showing lines 2001-5000 of 5000. Full output: /tmp/pi-bash-1.log]',
      'Bash output cut by the agent',
    ],
    ['read', { path: 'logo.png' }, '[image]', 'Read of a non-text file (image)'],
    ['grep', { pattern: 'x' }, 'a.ts:1: x', "pi's grep: its output is not compared yet"],
    ['find', { pattern: '*.ts' }, 'a.ts', "pi's find: its output is not compared yet"],
    ['ls', {}, 'a.ts', "pi's ls: its output is not compared yet"],
    ['subagent', { task: 'x' }, 'ok', "not in the course's toolset: subagent"],
  ])('drops %s %j: %s', (name, input, result, reason) => {
    expect(dropped(call(name, input, result))).toBe(reason);
  });

  it('maps the same names as the lesson agent does when the transcript is not pi', () => {
    expect(dropped(call('read', { path: 'a.ts' }, 'x'), { subdir: '' })).toBe("not in the course's toolset: read");
    expect(mapped(call('bash', { command: 'ls', timeout: 30 }, 'a'), { subdir: '' }).call).toEqual({
      tool: 'bash',
      input: { command: 'ls', timeout: 30 },
    });
  });
});
