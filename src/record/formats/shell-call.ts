// An OpenAI Responses `shell_call` of several commands (`action.commands`) as the Bash calls it made: the shell
// tool runs each command on its own and reports each (`shell_call_output.output[i]`: its stdout, stderr and
// outcome), so each is a call of its own (id `<call_id>#N`) with its own result, replayed and judged as any
// command is. A command the output has no report for never ran. Without an output, each has no recorded result.
import type { ImportedCall, ImportedResult } from '../types.ts';
import { isObject } from './json-values.ts';

// One command's report: its output (stdout then stderr, as the agent read them) and its exit code (none for a
// timeout).
export type ShellRun = { output: string; exitCode?: number };

// The calls a recorded call stands for: itself, or a shell_call's commands.
export function expandShellCall(call: ImportedCall): ImportedCall[] {
  const commands = call.input?.commands;
  if (call.name !== 'shell_call' || !Array.isArray(commands) || commands.length < 2) return [call];
  if (!commands.every((c) => typeof c === 'string')) return [call];
  const details = isObject(call.result?.details) ? call.result.details : {};
  // An output of one report keeps it as the result itself (its code beside it), not as `runs`.
  const exitCode = typeof details.exit_code === 'number' ? details.exit_code : undefined;
  const only: ShellRun = { output: call.result?.content ?? '', ...(exitCode !== undefined ? { exitCode } : {}) };
  const runs = Array.isArray(details.runs) ? (details.runs as ShellRun[]) : [only];
  const { commands: _, ...rest } = call.input ?? {};
  return (commands as string[]).map((command, i) => {
    const one: ImportedCall = { ...call, id: `${call.id}#${i + 1}`, name: 'bash', input: { ...rest, command } };
    delete one.result;
    if (call.result === undefined) return one;
    if (call.notRun !== undefined) return { ...one, result: call.result };
    const run = runs[i];
    if (run === undefined) return { ...one, notRun: 'the shell_call reported no output for it' };
    return { ...one, result: runResult(run, call.result) };
  });
}

function runResult(run: ShellRun, whole: ImportedResult): ImportedResult {
  return {
    content: run.output,
    isError: run.exitCode !== 0,
    ...(run.exitCode !== undefined ? { details: { exit_code: run.exitCode } } : {}),
    line: whole.line,
  };
}
