// Realistic run reports for the reporter tests, built in code: what runStage returns for a passing run, a
// run with each kind of failure, and one full of hostile text from a student's program.
import type { CaseResult, RunReport } from '../../../src/grade/types.ts';
import { variantHint } from '../../../src/grade/variants/judge-variant.ts';

// A passing case, optionally with something the program printed.
export const pass = (name: string, output = ''): CaseResult => ({
  name,
  description: `${name} routes to the right Tools method`,
  status: 'pass',
  durationMs: 41,
  output,
});

// A wrong answer: the dispatcher does not know `Read`, with the hint for it.
export const mismatch: CaseResult = {
  name: 'read-alias',
  description: 'Read is an alias of view',
  status: 'fail',
  durationMs: 52,
  output: '',
  failure: {
    kind: 'mismatch',
    message: 'call 1 of 2 (Read) returned a different result',
    callIndex: 0,
    call: { tool: 'Read', input: { path: 'a.txt' } },
    expected: { content: '1: A' },
    received: { content: 'unknown tool: Read', is_error: true },
    hint: 'Read is the model-facing name of view: route it to tools.view(input.path, input.view_range).',
  },
};

// A program that printed fewer results than the case has calls.
export const resultCount: CaseResult = {
  name: 'echo-smoke',
  description: 'echo returns its text',
  status: 'fail',
  durationMs: 38,
  output: '',
  failure: { kind: 'result-count', message: 'expected 2 results, the program printed 1', expected: 2, received: 1 },
};

// A program that threw at a call, with its stack trace as output.
export const crash: CaseResult = {
  name: 'bash-alias',
  description: 'Bash runs a command in the sandbox',
  status: 'fail',
  durationMs: 310,
  output:
    '[your_program] file:///course/src/execute.ts:12\n' +
    '[your_program]     return tools.bash(input.cmd.trim());\n' +
    "[your_program] TypeError: Cannot read properties of undefined (reading 'trim')\n" +
    '[your_program]     at execute (file:///course/src/execute.ts:12:36)\n',
  failure: { kind: 'crash', message: 'the program exited with code 1 before printing a result for this case' },
};

// A program killed at the per-case timeout.
export const timeout: CaseResult = {
  name: 'grep-alias',
  description: 'Grep searches the sandbox',
  status: 'fail',
  durationMs: 10_000,
  output: 'searching…\n',
  failure: { kind: 'timeout', message: 'no result after 10000 ms: the program and its children were killed' },
};

// Debug printing far past Exercism's 500-character output limit.
export const chatty: CaseResult = {
  ...pass('glob-alias'),
  output: `${Array.from({ length: 40 }, (_, i) => `debug: visiting entry ${i} of the sandbox`).join('\n')}\n`,
};

// What a hostile or careless program can print, and a name and messages that need escaping in every format.
export const HOSTILE_OUTPUT = [
  '::add-mask::x',
  '::set-output name=grade::100',
  '  ::warning::indented command',
  '::stop-commands::pwned',
  '::endgroup::',
  '::pwned::',
  'mid-line ##[add-mask]secret and ##[group]fake',
  '##[error]legacy error',
  'cdata ]]> end and ]]]]> twice',
  'colour \u001b[31mred\u001b[0m and bell \u0007 nul \u0000 next-line \u0085 del \u007f',
  'percent %0A %25 % done',
  'windows line\r\n::error::after crlf',
  'bare cr\r::notice::after cr',
  'unicode: ✓ café 日本語 עברית 🎉 lone \ud800 surrogate',
  'form\ffeed vertical\vtab\ttab',
].join('\n');

// A failure whose every field carries hostile text.
export const hostile: CaseResult = {
  name: 'edit # weird \\ name: a,b',
  description: 'Edit is an alias of str_replace',
  status: 'fail',
  durationMs: 77,
  output: HOSTILE_OUTPUT,
  failure: {
    kind: 'mismatch',
    message: 'call 2 of 2 (Edit) returned a different result: ]]> ::add-mask::y %0A',
    callIndex: 1,
    call: { tool: 'Edit', input: { path: 'a.txt', old_str: 'A', new_str: '::set-output name=x::]]>' } },
    expected: { content: 'The file a.txt has been edited.' },
    received: { content: '\u001b[31mboom\u001b[0m\r\n::add-mask::z \u0085 \u2028 \ufeff' },
    hint: 'Edit passes old_str and new_str: tools.strReplace(input.path, input.old_str, input.new_str) # note',
  },
};

// A case worth 3 points, passing, and a hidden one worth 2, failing as the judge words a hidden case's failure:
// no expected result anywhere in it.
export const weighty: CaseResult = { ...pass('view-range'), points: 3 };
export const hiddenFailure: CaseResult = {
  ...mismatch,
  name: 'edit-hidden',
  points: 2,
  visibility: 'hidden',
  failure: {
    kind: 'mismatch',
    message:
      'call 1 of 2 (Read) differs: the expected result of this case is hidden; received {"content":"unknown tool: Read","is_error":true}',
    callIndex: 0,
    call: { tool: 'Read', input: { path: 'a.txt' } },
    received: { content: 'unknown tool: Read', is_error: true },
    hint: 'Read is the model-facing name of view: route it to tools.view(input.path, input.view_range).',
  },
};

// A run report over `cases`, with counts that agree with them.
export function report(stage: string, cases: CaseResult[]): RunReport {
  const passed = cases.filter((c) => c.status === 'pass').length;
  return { stage, dir: '/course', cases, passed, failed: cases.length - passed, durationMs: 1234 };
}

// A stand-in for the grader's renderFailure(c, { color: false }): the same parts (case, call, input,
// expected/received, hint, program output), in a fixed layout so tests can check they survive each format.
export function diagnose(c: CaseResult): string {
  const f = c.failure;
  const lines = [`✗ ${c.name} — ${c.description}`, f?.message ?? ''];
  if (f?.call !== undefined)
    lines.push(`  call ${(f.callIndex ?? 0) + 1}: ${f.call.tool} ${JSON.stringify(f.call.input)}`);
  if (f?.expected !== undefined) lines.push(`  - expected ${JSON.stringify(f.expected)}`);
  if (f?.received !== undefined) lines.push(`  + received ${JSON.stringify(f.received)}`);
  if (f?.hint !== undefined) lines.push(`  hint: ${f.hint}`);
  if (c.output !== '') lines.push('  program output:', ...c.output.split('\n').map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

// A case that passed as written and failed its variant (src/grade/variants/judge-variant.ts), and a run with
// variants: its seed, how many were judged, and a case that had none.
export const VARIANT_SEED = 41730;
export const variantFailure: CaseResult = {
  ...mismatch,
  name: 'read-routes-to-view',
  failure: {
    ...mismatch.failure!,
    message: `variant (seed ${VARIANT_SEED}): call 1 of 1 (Read) differs: "content": expected "1: Q", received "1: A"`,
    call: { tool: 'Read', input: { path: 'q.txt' } },
    expected: { content: '1: Q' },
    received: { content: '1: A' },
    variant: { seed: VARIANT_SEED },
    hint: variantHint(VARIANT_SEED),
    hintCause: 'variant',
  },
};
const withVariants = (run: RunReport): RunReport => ({
  ...run,
  variants: { seed: VARIANT_SEED, judged: 2, none: [{ name: 'bash-environment', why: 'nothing in it to rename' }] },
});

// The reporters' context, as the grader passes it.
export const ctx = { diagnose };

// The named runs every reporter is tested over.
export const RUNS: Record<string, RunReport> = {
  passing: report('register-tools', [pass('echo'), pass('view-alias', 'debug: hello\n'), pass('write-alias')]),
  failing: report('register-tools', [pass('echo'), mismatch, resultCount]),
  crash: report('register-tools', [crash, pass('echo')]),
  timeout: report('register-tools', [timeout]),
  'over the cap': report('register-tools', [chatty, mismatch]),
  hostile: report('register-tools', [hostile, pass('echo', HOSTILE_OUTPUT)]),
  'all errored': report('register-tools', [crash, { ...crash, name: 'bash-alias-2' }]),
  empty: report('register-tools', []),
  variants: withVariants(report('register-tools', [pass('echo'), variantFailure])),
  weighted: report('register-tools', [weighty, hiddenFailure, { ...pass('after'), visibility: 'after_due_date' }]),
  'many failures': report(
    'register-tools',
    Array.from({ length: 13 }, (_, i) => ({ ...mismatch, name: `case-${String(i).padStart(2, '0')}` })),
  ),
};
