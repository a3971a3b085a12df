import { expect, test } from 'vitest';
import type { Call } from '../../../src/course/types.ts';
import { hintFor } from '../../../src/grade/judge/hints.ts';

const call = (tool: string, input: Record<string, unknown> = {}): Call => ({ tool, input });
const unknown = (tool: string) => ({ content: `unknown tool: ${tool}`, is_error: true });
const error = (content: string) => ({ content, is_error: true });
const timedOut = '\n[timed out after 300 ms; the command and its children were killed]';

// One row per recogniser (some with a second spelling of the same mistake), in the order hintFor checks them.
const ROWS: [mistake: string, call: Call, expected: unknown, received: unknown, hint: RegExp][] = [
  [
    'the stub init wrote',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    error(
      'makeExecute is not written yet (src/execute.ts): route Read to a tools method, as the course page "Register the toolset" shows',
    ),
    /^src\/execute\.ts is still the stub `theinference init` wrote: write makeExecute/,
  ],
  [
    'plain-object map: toString',
    call('toString', { path: 'a.txt' }),
    unknown('toString'),
    '[object Undefined]',
    /^`toString` reached Object\.prototype/,
  ],
  [
    'plain-object map: __proto__',
    call('__proto__'),
    unknown('__proto__'),
    { threw: 'TypeError: handler is not a function' },
    /^`__proto__` reached Object\.prototype/,
  ],
  [
    'case-insensitive names',
    call('read', { path: 'a.txt' }),
    unknown('read'),
    { content: '1: A' },
    /^tool names are exact: `read` is not `Read`/,
  ],
  [
    'throws on an unknown name',
    call('Search'),
    unknown('Search'),
    { threw: 'Error: unknown tool: Search' },
    /^execute threw \(Error: unknown tool: Search\) instead of returning \{ content: 'unknown tool: Search', is_error: true \}/,
  ],
  [
    'throws on a known name',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    { threw: "TypeError: Cannot read properties of undefined (reading 'view')" },
    /^execute threw .* on Read: a failure must come back as/,
  ],
  [
    '`Unknown tool` capitalised',
    call('Search'),
    unknown('Search'),
    error('Unknown tool: Search'),
    /^the exact text is lowercase `unknown tool: Search`/,
  ],
  [
    'unknown tool without is_error',
    call('Search'),
    unknown('Search'),
    { content: 'unknown tool: Search' },
    /^an unknown tool is an error: return \{ content: 'unknown tool: Search', is_error: true \}/,
  ],
  [
    'alias not wired',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    unknown('Read'),
    /^the alias `Read` is not wired: route it to tools\.view$/,
  ],
  [
    'echo not wired',
    call('echo', { text: 'hi' }),
    { content: 'hi' },
    unknown('echo'),
    /^the name `echo` is not wired: return \{ content: input\.text \}$/,
  ],
  [
    'missing return',
    call('Grep', { pattern: 'foo' }),
    { content: 'a.ts:1: foo' },
    null,
    /^execute returned nothing for Grep: a `return` is missing/,
  ],
  [
    'echo puts its text under `text`',
    call('echo', { text: 'hi', extra: 1 }),
    { content: 'hi' },
    { text: 'hi' },
    /^echo's result has `text` where a ToolOutput has `content`: return \{ content: input\.text \}$/,
  ],
  [
    'a result under another key',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    { output: '1: A' },
    /^Read's result has `output` where a ToolOutput has `content`: return \{ content: … \} \(the ToolOutput of tools\.view as it is\)$/,
  ],
  [
    'echo returns the whole input',
    call('echo', { text: 'hi' }),
    { content: 'hi' },
    { content: { text: 'hi' } },
    /^echo returned the whole input/,
  ],
  [
    'echo reads the wrong key',
    call('echo', { text: 'hi' }),
    { content: 'hi' },
    {},
    /^echo must return \{ content: input\.text \}$/,
  ],
  [
    'promise in content',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    { content: {} },
    /^the result of tools\.view was not awaited/,
  ],
  [
    'a field read off an un-awaited promise',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    {},
    /^Read's result is \{\} \(no `content`\): a field read off tools\.view\(…\) without `await` is undefined/,
  ],
  [
    'promise stringified',
    call('view', { path: 'a.txt' }),
    { content: '1: A' },
    { content: '[object Promise]' },
    /^the result of tools\.view was not awaited/,
  ],
  [
    'fire-and-forget',
    call('Glob', { pattern: '*' }),
    { content: 'a.txt' },
    { content: '' },
    /^Glob returned before tools\.glob finished: its promise was not awaited/,
  ],
  [
    'is_error: false on a success',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    { content: '1: A', is_error: false },
    /^only bash sets is_error: a success from Read has no is_error key/,
  ],
  [
    'camelCase key',
    call('Edit', { path: 'a.txt', old_str: 'A', new_str: 'B' }),
    { content: 'The file a.txt has been edited.' },
    error("Missing required parameter 'old_str'"),
    /^input\.old_str was not passed: read `old_str` from the input \(in snake_case, as the model sends it\)$/,
  ],
  [
    'a key with no underscore is not called snake_case',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    error("Missing required parameter 'path'"),
    /^input\.path was not passed: read `path` from the input \(as the model sends it\)$/,
  ],
  [
    'insert reads only new_str',
    call('insert', { path: 'a.txt', insert_line: 0, insert_text: 'x' }),
    { content: 'Inserted text after line 0 of a.txt' },
    error("Missing required parameter 'insert_text'"),
    /^input\.insert_text was not passed: current models send `insert_text`/,
  ],
  [
    '`||` where `??` is due: an empty insert_text',
    call('insert', { path: 'a.txt', insert_line: 1, insert_text: '' }),
    { content: 'Inserted text after line 1 of a.txt' },
    error("Missing required parameter 'insert_text'"),
    /^input\.insert_text is "" in this call and arrived as missing: `input\.insert_text \|\| input\.new_str` treats "" as missing; use `input\.insert_text \?\? input\.new_str`/,
  ],
  [
    'an empty old_str arrived missing: not read at all (no fallback key to fall through to)',
    call('Edit', { path: 'a.txt', old_str: '', new_str: 'B' }),
    error("Invalid parameter 'old_str': it must not be empty"),
    error("Missing required parameter 'old_str'"),
    /^input\.old_str was not passed: read `old_str` from the input/,
  ],
  [
    'insert reads only insert_text',
    call('insert', { path: 'a.txt', insert_line: 0, new_str: 'x' }),
    { content: 'Inserted text after line 0 of a.txt' },
    error("Missing required parameter 'insert_text'"),
    /^insert got no text: this call sends it as `new_str`/,
  ],
  [
    'a parameter of another method',
    call('Edit', { path: 'a.txt', old_str: 'A', new_str: 'B' }),
    { content: 'The file a.txt has been edited.' },
    error("Missing required parameter 'file_text'"),
    /^Edit was routed to the wrong method: it asked for `file_text`, which tools\.strReplace does not take \(tools\.create does\)/,
  ],
  [
    'the whole input object as the path',
    call('Read', { path: 'a.txt' }),
    { content: '1: A' },
    error("Invalid parameter 'path': expected a string, got object"),
    /^Read gave tools\.view the whole input object as its `path`: pass the input's fields one by one, in the method's order: tools\.view\(input\.path, input\.view_range\)$/,
  ],
  [
    'insert_line and the text out of order',
    call('insert', { path: 'a.txt', insert_line: 1, insert_text: 'x' }),
    { content: 'Inserted text after line 1 of a.txt' },
    error('Invalid parameter \'insert_line\': expected a whole number, got "x"'),
    /^insert gave tools\.insert something other than input\.insert_line as its `insert_line`: .*tools\.insert\(input\.path, input\.insert_line, input\.insert_text \?\? input\.new_str\)$/,
  ],
  [
    'the glob where the path goes',
    call('Grep', { pattern: 'foo', glob: '*.ts' }),
    { content: 'a.ts:1: foo' },
    error('Path not found: *.ts'),
    /^Grep gave tools\.grep input\.glob as its `path`: .*tools\.grep\(input\.pattern, input\.path, input\.glob\)$/,
  ],
  [
    'old_str and new_str swapped',
    call('Edit', { path: 'a.txt', old_str: 'A', new_str: 'B' }),
    { content: 'The file a.txt has been edited.' },
    error('No replacement was performed: old_str did not appear verbatim in a.txt'),
    /^tools\.strReplace found nothing to replace/,
  ],
  [
    'view_range ignored',
    call('Read', { path: 'a.txt', view_range: [2, 3] }),
    { content: '2: b\n3: c' },
    { content: '1: a\n2: b\n3: c\n4: d' },
    /^tools\.view answered as if input\.view_range had not been sent: pass it to tools\.view/,
  ],
  [
    'bad view_range not rejected',
    call('view', { path: 'a.txt', view_range: [1.5, 2] }),
    error('Invalid view_range: expected [start, end] with whole numbers, got [1.5,2]'),
    { content: '1: a\n2: b' },
    /^tools\.view answered as if input\.view_range had not been sent/,
  ],
  [
    'an empty view_range ignored',
    call('Read', { path: 'a.txt', view_range: [] }),
    error('Invalid view_range: expected [start, end] with whole numbers, got []'),
    { content: '1: a\n2: b' },
    /^tools\.view answered as if an empty input\.view_range \(\[\]\) had not been sent: pass it to tools\.view as the model sent it, even empty/,
  ],
  [
    'timeout ignored',
    call('Bash', { command: 'sleep 2', timeout: 300 }),
    { content: timedOut, is_error: true, exit_code: 124 },
    { content: '', is_error: false, exit_code: 0 },
    /^tools\.bash answered as if input\.timeout had not been sent: pass it to tools\.bash/,
  ],
  [
    'grep glob ignored',
    call('Grep', { pattern: 'foo', glob: '*.ts' }),
    { content: 'a.ts:1: foo\nsrc/deep/b.ts:1: foo' },
    { content: 'a.md:1: foo\na.ts:1: foo\nsrc/deep/b.ts:1: foo' },
    /^tools\.grep answered as if input\.glob had not been sent: pass it to tools\.grep as its third argument, as the model sent it$/,
  ],
  [
    'glob path ignored: nothing at the root',
    call('Glob', { pattern: '*.md', path: '<sandbox>/notes' }),
    { content: 'done.md\ntodo.md' },
    { content: 'No files found' },
    /^tools\.glob answered as if input\.path had not been sent: pass it to tools\.glob/,
  ],
  [
    'glob path ignored: listed from the root',
    call('glob', { pattern: '**/*.ts', path: 'src' }),
    { content: 'a.ts' },
    { content: 'src/a.ts' },
    /^tools\.glob answered as if input\.path had not been sent: pass it to tools\.glob/,
  ],
  [
    'Edit routed to create',
    call('Edit', { path: 'a.txt', old_str: 'A', new_str: 'B' }),
    { content: 'The file a.txt has been edited.' },
    { content: 'File overwritten successfully at: a.txt' },
    /^Edit was routed to the wrong method \(its result looks like create's\): route it to tools\.strReplace$/,
  ],
  [
    'view routed to glob',
    call('view', { path: 'a.txt' }),
    { content: '1: A' },
    { content: 'a.txt' },
    /^view was routed to the wrong method \(its result looks like glob's\): route it to tools\.view$/,
  ],
  [
    'Grep routed to bash',
    call('Grep', { pattern: 'foo' }),
    { content: 'a.ts:1: foo' },
    error("Missing required parameter 'command'"),
    /^Grep was routed to the wrong method: it asked for `command`/,
  ],
  [
    'a timer left running, whatever the name (the result is right)',
    call('constructor', {}),
    error('unknown tool: constructor'),
    { left_timer: { kind: 'setTimeout', ms: 8000 }, result: error('unknown tool: constructor') },
    /^execute returned its result but left a setTimeout\(…, 8000\) of its own running, .*\(`clearTimeout` in a `finally`\)$/,
  ],
];

test.each(ROWS)('%s', (_, call, expected, received, hint) => {
  expect(hintFor({ call, expected, received })?.text).toMatch(hint);
});

test.each([
  { what: 'results that agree', expected: { content: '1: A' }, received: { content: '1: A' } },
  { what: 'a difference no recogniser explains', expected: { content: '1: A' }, received: { content: '1: B' } },
  // The student's Tools are the course's in this stage: an error worded otherwise is the dispatcher's doing, and
  // nothing here proves how (the failure says what differs).
  {
    what: 'an error worded otherwise by the same method',
    expected: error('File not found: nope.txt'),
    received: error("ENOENT: no such file or directory, open 'nope.txt'"),
  },
  {
    what: 'a success where an error was due, from the right method',
    expected: error('File not found: a.txt'),
    received: { content: '1: A' },
  },
])('no hint for $what', ({ expected, received }) => {
  expect(hintFor({ call: call('Read', { path: 'a.txt' }), expected, received })).toBeUndefined();
});

test("the stub init writes gets the stub's hint on every call, whatever was expected", async () => {
  const { makeExecute } = await import('../../../course-template/src/execute.ts');
  const execute = makeExecute({} as never);
  for (const [tool, expected] of [
    ['Read', { content: '1: A' }],
    ['nope', unknown('nope')],
    ['Bash', { content: 'hi\n', is_error: false, exit_code: 0 }],
  ] as const) {
    const received = await execute(tool, {});
    expect(hintFor({ call: call(tool), expected, received })?.text, tool).toMatch(
      /^src\/execute\.ts is still the stub `theinference init` wrote/,
    );
  }
});

// A hint's cause is what the terminal report groups failures by: the same mistake met through two tool names is
// one cause (one message), two mistakes (two aliases left unwired) are two.
const CAUSES: [what: string, a: [Call, unknown, unknown], b: [Call, unknown, unknown], same: boolean][] = [
  [
    'a throw on two unknown names',
    [call('Search'), unknown('Search'), { threw: 'Error: unknown tool: Search' }],
    [call('View'), unknown('View'), { threw: 'Error: unknown tool: View' }],
    true,
  ],
  [
    '`Unknown tool` capitalised, for a name and for the empty name',
    [call('Search'), unknown('Search'), error('Unknown tool: Search')],
    [call(''), unknown(''), error('Unknown tool: ')],
    true,
  ],
  [
    'two wordings of an unknown tool',
    [call('Search'), unknown('Search'), error('Unknown tool: Search')],
    [call('Search'), unknown('Search'), error('UNKNOWN TOOL: Search')],
    false,
  ],
  [
    'no is_error on two unknown names',
    [call('Search'), unknown('Search'), { content: 'unknown tool: Search' }],
    [call('read_file'), unknown('read_file'), { content: 'unknown tool: read_file' }],
    true,
  ],
  [
    'two inherited names',
    [call('toString'), unknown('toString'), '[object Undefined]'],
    [call('constructor'), unknown('constructor'), { content: 'function Object() { [native code] }' }],
    true,
  ],
  [
    'two names compared without case',
    [call('read'), unknown('read'), { content: '1: A' }],
    [call('BASH'), unknown('BASH'), { content: 'hi\n', is_error: false, exit_code: 0 }],
    true,
  ],
  [
    'is_error: false on two methods',
    [call('Read', { path: 'a.txt' }), { content: '1: A' }, { content: '1: A', is_error: false }],
    [call('Glob', { pattern: '*' }), { content: 'a.txt' }, { content: 'a.txt', is_error: false }],
    true,
  ],
  [
    'nothing returned for both aliases of a method',
    [call('Read'), { content: '1: A' }, null],
    [call('view'), { content: '1: A' }, null],
    true,
  ],
  [
    'nothing returned for two methods',
    [call('Read'), { content: '1: A' }, null],
    [call('Grep'), { content: 'a:1: A' }, null],
    false,
  ],
  [
    'a field of an un-awaited promise, through both aliases',
    [call('Read'), { content: '1: A' }, {}],
    [call('view'), { content: '1: A' }, {}],
    true,
  ],
  [
    'two aliases left unwired',
    [call('Read'), { content: '1: A' }, unknown('Read')],
    [call('Write'), { content: 'File created successfully at: a' }, unknown('Write')],
    false,
  ],
];

test.each(CAUSES)('the cause of %s (one mistake: %s)', (_, a, b, same) => {
  const causeOf = ([c, expected, received]: [Call, unknown, unknown]) =>
    hintFor({ call: c, expected, received })?.cause;
  expect(causeOf(a)).toBeDefined();
  expect(causeOf(b)).toBeDefined();
  expect(causeOf(a) === causeOf(b)).toBe(same);
});
