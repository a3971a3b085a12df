// The commands' declarations: every command in --help's order with its flags, and record's --bash passed on only
// when the command line gave it.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram, recordFlags } from '../../src/cli/program.ts';

function program() {
  const io = {
    argv: [],
    cwd: '/',
    env: {},
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
  };
  return buildProgram(io, () => {});
}

describe('buildProgram', () => {
  it('declares the commands in the order --help lists them', () => {
    expect(program().commands.map((c) => c.name())).toEqual([
      'test',
      'init',
      'stages',
      'audit',
      'snapshot',
      'record',
      'redact',
      'merge',
    ]);
  });

  it.each([
    // test reads the stage from the course's package.json when --stage is left out.
    ['test', '--stage', false],
    ['audit', '--stage', true],
    ['snapshot', '--stage', true],
    ['record', '--stage', true],
    ['redact', '--stage', true],
    ['init', '--stage', false],
    ['test', '--memory', false],
    ['record', '--keep-transcript', false],
  ])('%s declares %s (required: %s)', (name, flag, required) => {
    const option = program()
      .commands.find((c) => c.name() === name)
      ?.options.find((o) => o.long === flag);
    expect(option?.mandatory).toBe(required);
  });
});

describe('recordFlags', () => {
  const options = { stage: 'agent-loop', bash: 'reproducible', dryRun: true };

  it('passes --bash on when the command line gave it', () => {
    expect(recordFlags(['t.jsonl'], options, true)).toEqual({ ...options, operands: ['t.jsonl'] });
  });

  it('leaves out --bash when it is only the default shown in --help', () => {
    expect(recordFlags(['t.jsonl'], options, false)).toEqual({
      stage: 'agent-loop',
      dryRun: true,
      operands: ['t.jsonl'],
    });
  });
});
