// From an observation to findings, on dispatchers run through the driver's real probe: the reference has
// none; nothing is inferred from an observation that shows nothing of the dispatcher; one finding per mistake.
// (test/suite-strength.test.ts proves the findings right on the whole catalogue of wrong dispatchers.)
import { expect, it } from 'vitest';
import { observe } from '../../../../src/modes/dispatch/driver.ts';
import { makeExecute } from '../../../../src/execute.ts';
import { findMistakes } from '../../../../src/modes/dispatch/judge/find-mistakes.ts';
import { probeRequest } from '../../../../src/modes/dispatch/judge/probe-calls.ts';
import { Tools } from '../../../../src/tools/index.ts';
import type { ToolOutput } from '../../../../src/tools/types.ts';
import { EARLIER_TOOLS_ANSWER } from '../../../../src/modes/dispatch/earlier-tools.ts';
import { EMPTY_RESULT_CAUSE } from '../../../../src/modes/dispatch/judge/empty-result-finding.ts';
import { explains } from '../../../../src/grade/judge/finding.ts';

type Make = Parameters<typeof observe>[1];
const findings = async (make: Make) =>
  findMistakes(JSON.parse(JSON.stringify(await observe(probeRequest(), make))) as unknown);

it('finds nothing wrong with the reference', async () => {
  expect(await findings(makeExecute)).toEqual([]);
});

it('finds nothing in an observation that is malformed, or of another probe', () => {
  expect(findMistakes({ calls: [] })).toEqual([]);
  expect(findMistakes([{ calls: [], result: null }])).toEqual([]);
});

it('infers nothing from a makeExecute that throws for the stand-in Tools (it checks `instanceof Tools`)', async () => {
  const make = ((tools: unknown) => {
    if (!(tools instanceof Tools)) throw new TypeError('not a Tools');
    return makeExecute(tools);
  }) as Make;
  expect(await findings(make)).toEqual([]);
});

it('says nothing of routes when the calls reach Tools kept from elsewhere, not the stand-in', async () => {
  const stale = new Tools('/nonexistent-sandbox');
  expect((await findings((() => makeExecute(stale)) as Make)).map((f) => f.cause)).toEqual([]);
});

it('makes one finding per mistake, each about its own names', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) => {
      if (name === 'Glob' || name === 'glob') return tools.glob(input.path, input.pattern);
      if (name === 'Bash' || name === 'bash')
        return { content: (await tools.bash(input.command, input.timeout)).content };
      return reference(name, input);
    };
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(/^`Bash` and `bash` drop `exit_code` and `is_error` from what tools\.bash returns/),
    expect.stringMatching(/^`Glob` and `glob` call tools\.glob\(input\.path, input\.pattern\)/),
  ]);
  expect(found[0]?.triggers).toEqual([{ names: ['Bash', 'bash'], change: { drop: ['exit_code', 'is_error'] } }]);
});

// The reference with one branch replaced.
const withBranch = (names: string[], branch: (tools: Tools, input: any) => unknown): Make =>
  ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) =>
      names.includes(name) ? branch(tools, input) : reference(name, input);
  }) as Make;

it('takes into a changed argument the throws of the code that changes it (a key of another type, or none)', async () => {
  const make = withBranch(['Write', 'create'], (tools, input) =>
    tools.create(input.path, input.file_text.endsWith('\n') ? input.file_text : `${input.file_text}\n`),
  );
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(
      /input\.file_text reaches it changed .*Also: the same branch throws \(TypeError: input\.file_text\.endsWith is not a function\) when input\.file_text is not a string or is left out, before tools\.create is called/,
    ),
  ]);
  expect(found[0]?.triggers).toContainEqual({
    names: ['Write', 'create'],
    when: [{ key: 'file_text', class: 'mistyped' }],
  });
  expect(found[0]?.triggers).toContainEqual({
    names: ['Write', 'create'],
    when: [{ key: 'file_text', class: 'absent' }],
  });
});

it('says a number computed from the one sent is a change, and breaks the calls leaving it out (NaN)', async () => {
  const make = withBranch(['insert'], (tools, input) =>
    tools.insert(input.path, input.insert_line - 1, input.insert_text ?? input.new_str),
  );
  const [found] = await findings(make);
  expect(found?.text).toMatch(
    /input\.insert_line reaches it changed \(107 for 108, - 1\): pass it as the model sent it$/,
  );
  expect(found?.triggers).toContainEqual({ names: ['insert'], when: [{ key: 'insert_line', class: 'absent' }] });
});

it('names a constant passed for a number as it is, and leaves alone what it does with the key left out', async () => {
  const make = withBranch(['Bash', 'bash'], (tools, input) => tools.bash(input.command, 5000));
  const [found] = await findings(make);
  expect(found?.text).toMatch(/where input\.timeout goes it passes 5000$/);
  expect(found?.triggers).not.toContainEqual({ names: ['Bash', 'bash'], when: [{ key: 'timeout', class: 'absent' }] });
});

it('says a number sent and another received are both values, with how one follows the other (× 1000)', async () => {
  const make = withBranch(['Bash', 'bash'], (tools, input) =>
    tools.bash(input.command, input.timeout ? input.timeout * 1000 : undefined),
  );
  const [found] = await findings(make);
  expect(found?.text).toMatch(
    /\(input\.timeout, changed\)\), .*: input\.timeout reaches it changed \(108000 for 108, × 1000\): pass it as the model sent it \(it is already milliseconds\)$/,
  );
  expect(found?.text).not.toContain('passes 108000');
});

it('says the difference when a number received follows the one sent by an offset, with no word on units', async () => {
  const make = withBranch(['Bash', 'bash'], (tools, input) =>
    tools.bash(input.command, input.timeout === undefined ? undefined : input.timeout + 10),
  );
  const [found] = await findings(make);
  expect(found?.text).toMatch(
    /input\.timeout reaches it changed \(118 for 108, \+ 10\): pass it as the model sent it$/,
  );
});

it('says a call that reached its method and then another, not a wrong route (a case without break)', async () => {
  const make = withBranch(['insert'], async (tools, input) => {
    await tools.insert(input.path, input.insert_line, input.insert_text ?? input.new_str);
    return tools.glob(input.pattern, input.path);
  });
  expect((await findings(make)).map((f) => f.text)).toEqual([
    'one call to `insert` calls tools.insert and then tools.glob: one call should reach one method and return what it returned. A `case` without `break` (or `return`) runs on into the next case — a missing break? (`npm run typecheck` flags one: the grader runs your code without type-checking it)',
  ]);
});

it('says nothing of a method called before the call’s own (a look before a write)', async () => {
  const make = withBranch(['Write', 'create'], async (tools, input) => {
    await tools.view(input.path);
    return tools.create(input.path, input.file_text);
  });
  expect((await findings(make)).map((f) => f.cause)).not.toContainEqual(expect.stringMatching(/^also/));
});

it('names a cache that keeps only successes: the call with the required keys alone is answered no error', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    const seen = new Map<string, { is_error?: boolean }>();
    return async (name: string, input: Record<string, unknown>) => {
      if (name !== 'Read' && name !== 'view') return reference(name, input);
      const key = JSON.stringify([input.path, input.view_range]);
      const hit = seen.get(key);
      if (hit) return hit;
      const out = (await reference(name, input)) as { is_error?: boolean };
      if (!out.is_error) seen.set(key, out);
      return out;
    };
  }) as Make;
  expect((await findings(make)).map((f) => f.text)).toEqual([
    expect.stringMatching(
      /^execute changes what tools\.view returned: `Read` and `view` give back the result of an earlier call/,
    ),
  ]);
});

it("names a branch's own answer given without its method, and when, with the answer written for any input", async () => {
  const make = withBranch(['Read', 'view'], (tools, input) =>
    typeof input.path === 'string' && input.path !== ''
      ? tools.view(input.path, input.view_range)
      : { content: `bad path: ${JSON.stringify(input.path)}`, is_error: true },
  );
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    '`Read` and `view` answer some calls themselves, without calling tools.view: {"content":"bad path: \\"\\"","is_error":true} when input.path is ""; {"content":"bad path: 4242","is_error":true} when input.path is not a string; {"content":"bad path: [\\"probe-path\\"]","is_error":true} when input.path is not a string; {"content":"bad path: undefined","is_error":true} when input.path is left out. Pass every call on to tools.view and return what it returns; tools.view makes its own checks and words its own errors',
  ]);
  expect(found[0]?.triggers).toContainEqual({
    names: ['Read', 'view'],
    answers: { content: 'bad path: undefined', is_error: true },
  });
});

it('names a result reused from an earlier call with the same input, for every name that reuses', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    const seen = new Map<string, unknown>();
    return async (name: string, input: Record<string, unknown>) => {
      const key = `${name} ${JSON.stringify(input)}`;
      if (name === 'Read' || name === 'view') {
        if (!seen.has(key)) seen.set(key, await reference(name, input));
        return seen.get(key);
      }
      return reference(name, input);
    };
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(
      /^execute changes what tools\.view returned: `Read` and `view` give back the result of an earlier call with the same input, .* \(tools\.view was not even called the second time\)/,
    ),
  ]);
  expect(found[0]?.triggers).toEqual([{ names: ['Read', 'view'], repeated: true }]);
});

it("says each way echo's text goes wrong, in one finding", async () => {
  const make = withBranch(['echo'], (_, input) => ({ content: String(input.text).trim() }));
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    'echo turns input.text into a string (4242 became "4242"): return { content: input.text } as the model sent it, whatever its type. Also: echo trims its text: return { content: input.text } as it is, spaces and line breaks included',
  ]);
});

it('names a detour to another method under some input as a route, with when', async () => {
  const make = withBranch(['Edit', 'str_replace'], (tools, input) =>
    input.old_str === ''
      ? tools.create(input.path, input.new_str ?? '')
      : tools.strReplace(input.path, input.old_str, input.new_str),
  );
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    '`Edit` and `str_replace` reach tools.create, not tools.strReplace, when input.old_str is "": route every call to tools.strReplace, which answers such input with its own error',
  ]);
  expect(found[0]?.triggers).toEqual([{ names: ['Edit', 'str_replace'], when: [{ key: 'old_str', class: 'falsy' }] }]);
});

it("writes the stand-in's root as <sandbox>, never the machine's temporary path", async () => {
  const make = withBranch(['Read', 'view'], (tools, input) =>
    tools.view(`${(tools as unknown as { root: string }).root}/${input.path}`, input.view_range),
  );
  const [found] = await findings(make);
  expect(found?.text).toMatch(/input\.path reaches it changed \("<sandbox>\/probe-path" for "probe-path"\)/);
  expect(found?.text).not.toMatch(/theinference-probe-/);
});

it('makes one finding of one change to a key in the branches of several methods (one helper called in each)', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) =>
      reference(name, typeof input.path === 'string' ? { ...input, path: `/abs/${input.path}` } : input);
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    'the branches of every tool name that takes input.path change input.path before their Tools methods see it ("/abs/probe-path" for "probe-path"): pass it as the model sent it; the Tools check it themselves, and their messages say it as the model sent it',
  ]);
  expect(found[0]?.triggers).toContainEqual({ names: ['Glob'], when: [{ key: 'path', class: 'present' }] });
});

it('names Tools kept from an earlier makeExecute call: every call the earlier Tools answered, one finding', async () => {
  let shared: Tools | undefined;
  const make = ((tools: Tools) => {
    shared ??= tools;
    return makeExecute(shared);
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.cause)).toEqual(['tools of an earlier makeExecute']);
  expect(found[0]?.text).toMatch(
    /^execute called the methods of the Tools an earlier makeExecute call was given .* Use the tools each makeExecute call is given$/,
  );
  expect(found[0]?.triggers).toEqual([
    {
      names: [
        'Read',
        'view',
        'Write',
        'create',
        'Edit',
        'str_replace',
        'insert',
        'Glob',
        'glob',
        'Grep',
        'grep',
        'Bash',
        'bash',
      ],
      answers: EARLIER_TOOLS_ANSWER,
    },
  ]);
});

it('says nothing of earlier Tools when a branch answers the same without a Tools (only an answer from them proves it)', () => {
  const plan = probeRequest().calls;
  const entry = { calls: [], result: { content: 'probe answer', is_error: true } };
  expect(findMistakes(plan.map(() => entry)).map((f) => f.cause)).not.toContain('tools of an earlier makeExecute');
});

it('names a ./ stripped off input.path in every branch as one finding, the throws of the code that strips it in it', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: any) => {
      if ('path' in input) input.path = input.path.replace(/^\.\//, '');
      return reference(name, input);
    };
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(
      /^the branches of every tool name that takes input\.path change an input\.path starting with \.\/ before their Tools methods see it \("\.\/probe-path" became "probe-path"\).* Also: the same branches throw \(TypeError: input\.path\.replace is not a function\) when input\.path is not a string or is null/,
    ),
  ]);
  expect(found[0]?.triggers).toContainEqual({ names: ['Write'], when: [{ key: 'path', class: 'dotted' }] });
});

it("names a cut of every method's result, with echo's throw on a content that is not a text, as one finding", async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: any) => {
      const output = (await reference(name, input)) as { content: string };
      return { ...output, content: output.content.slice(0, 50_000) };
    };
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(
      /^execute changes what the Tools method returned: every tool name that calls a Tools method cuts what the Tools method returns to its first 50,000 characters .* Also: execute threw \(TypeError: output\.content\.slice is not a function\) on `echo` when input\.text is not a string/,
    ),
  ]);
  expect(found[0]?.triggers[0]?.change).toEqual({ content: { cut: 50_000 } });
});

it('names `input.limit` read where view_range goes (the lesson read_file), as a key read under another name', async () => {
  const make = withBranch(['Read', 'view'], (tools, input) => tools.view(input.path, input.limit));
  const found = await findings(make);
  expect(found.map((f) => f.text)).toEqual([
    '`Read` and `view` call tools.view(input.path, input.limit), where the contract calls tools.view(input.path, input.view_range): the model sends `view_range`, not `limit`',
  ]);
});

// A wrapper around the whole switch that rebuilds every result: the stand-in's errors come back as they were only
// when the change spares them, so a field dropped from successes alone is told from one dropped everywhere.
it.each([
  [
    'out.is_error ? out : { content }',
    (out: ToolOutput) => (out.is_error ? out : { content: out.content }),
    /^every tool name that calls a Tools method drops `exit_code` and `is_error` from what the Tools method returns on success \(an error comes back whole\)/,
  ],
  [
    "a loop's tool_result block",
    (out: ToolOutput) => ({ type: 'tool_result', content: out.content, ...(out.is_error ? { is_error: true } : {}) }),
    /^every tool name drops `exit_code` from what the Tools method returns, and `is_error` from a success: .* Also: every tool name adds \{"type":"tool_result"\}/,
  ],
])('names the fields a rebuilt result drops, and from which results: %s', async (_, rebuild, words) => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) => rebuild(await reference(name, input));
  }) as Make;
  expect((await findings(make)).map((f) => f.text)).toEqual([expect.stringMatching(words)]);
});

// A check that refuses every key its tool does not read, written once before the switch.
const refusingExtraKeys: Make = ((tools: Tools) => {
  const reference = makeExecute(tools);
  const keys: Record<string, string[]> = {
    Read: ['path', 'view_range'],
    Bash: ['command', 'timeout'],
    Edit: ['path', 'old_str', 'new_str'],
  };
  return async (name: string, input: Record<string, unknown>) => {
    const own = Object.hasOwn(keys, name) ? keys[name] : undefined;
    const extra = Object.keys(input).find((k) => own !== undefined && !own.includes(k));
    if (extra !== undefined) return { content: `Unknown parameter '${extra}'`, is_error: true };
    return reference(name, input);
  };
}) as Make;

it('makes a refusal of keys outside the contract one finding, which explains a refusal of any such key', async () => {
  const found = await findings(refusingExtraKeys);
  expect(found.map((f) => f.text)).toEqual([
    expect.stringMatching(
      /^`Read`, `Edit` and `Bash` answer some calls themselves, .* when the input holds a key the contract does not read \(".*", say\), which the Tools ignore/,
    ),
  ]);
  // A key no probe call sent, refused in the case's own words.
  const failed = (tool: string, input: Record<string, unknown>, key: string) => ({
    call: { tool, input },
    expected: { content: 'x' },
    received: { content: `Unknown parameter '${key}'`, is_error: true },
    inFlight: false,
  });
  expect(explains(found[0]!, failed('Edit', { path: 'a', old_text: 'b' }, 'old_text'))).toBe(true);
  expect(explains(found[0]!, failed('Read', { path: 'a', offset: 2 }, 'offset'))).toBe(true);
  // A key the input does not hold is not what this check answers.
  expect(explains(found[0]!, failed('Read', { path: 'a', offset: 2 }, 'limit'))).toBe(false);
});

it('makes every result an empty object one finding, and the only one (a Promise copied by a spread)', async () => {
  const make = ((tools: Tools) => {
    const reference = makeExecute(tools);
    return async (name: string, input: Record<string, unknown>) => ({ ...(reference(name, input) as object) });
  }) as Make;
  const found = await findings(make);
  expect(found.map((f) => f.cause)).toEqual([EMPTY_RESULT_CAUSE]);
  expect(found[0]?.text).toMatch(/A Promise copied with a spread/);
});
