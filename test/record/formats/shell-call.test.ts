// A Responses shell_call of several commands as one Bash call per command, each with its own report.
import { describe, expect, it } from 'vitest';
import { expandShellCall } from '../../../src/record/formats/shell-call.ts';
import { call } from '../calls.ts';

const shellCall = (result?: Parameters<typeof call>[2]) =>
  call('shell_call', { commands: ['echo a', 'false', 'echo c'], timeout_ms: null }, result, { id: 'call_1' });

describe('expandShellCall', () => {
  it('makes each command a bash call of its own, with its own output and exit code', () => {
    const runs = [
      { output: 'a\n', exitCode: 0 },
      { output: '', exitCode: 1 },
      { output: 'c\n', exitCode: 0 },
    ];
    const calls = expandShellCall(shellCall({ content: 'a\nc\n', details: { exit_code: 0, runs } }));
    expect(calls.map((c) => [c.id, c.name, c.input, c.result?.content, c.result?.isError, c.result?.details])).toEqual([
      ['call_1#1', 'bash', { command: 'echo a', timeout_ms: null }, 'a\n', false, { exit_code: 0 }],
      ['call_1#2', 'bash', { command: 'false', timeout_ms: null }, '', true, { exit_code: 1 }],
      ['call_1#3', 'bash', { command: 'echo c', timeout_ms: null }, 'c\n', false, { exit_code: 0 }],
    ]);
  });

  it('says a command the output has no report for never ran, and reads a single report as the first command', () => {
    const calls = expandShellCall(shellCall({ content: 'a\n', details: { exit_code: 0 } }));
    expect(calls.map((c) => [c.result?.content, c.notRun])).toEqual([
      ['a\n', undefined],
      [undefined, 'the shell_call reported no output for it'],
      [undefined, 'the shell_call reported no output for it'],
    ]);
  });

  it('leaves each command without a result when the call has no output, and other calls alone', () => {
    expect(expandShellCall(shellCall()).map((c) => c.result)).toEqual([undefined, undefined, undefined]);
    const bash = call('bash', { command: 'ls' }, 'x');
    expect(expandShellCall(bash)).toEqual([bash]);
  });
});
