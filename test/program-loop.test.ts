// The driver's loop mode (src/modes/loop/): the fake Messages API and the scripted execute, with the real SDK against them (in
// process, with loops written to misbehave), and the mode as the grader runs it (in a process of its own).
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverEntry } from '../src/modes/driver-files.ts';
import { observeLoops, parseLoopCase, runLoopCase } from '../src/modes/loop/driver.ts';
import { runLoop } from '../src/agent-loop.ts';
import { wholeRequests } from '../src/modes/loop/judge/loop-results.ts';
import type { Execute, LoopRequest } from '../src/index.ts';
import { REPO } from './support/reference-course.ts';

type Loop = (client: Anthropic, execute: Execute, request: LoopRequest) => Promise<unknown>;

const request = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools: [{ name: 'Read', input_schema: { type: 'object' } }],
  messages: [{ role: 'user', content: 'Read a.txt and b.txt.' }],
};
const message = (content: unknown[], stop_reason: string) => ({
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
});
const readA = { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { path: 'a.txt' } };
const readB = { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { path: 'b.txt' } };
// Two reads in one turn, then an answer.
const twoReads = {
  request,
  turns: [
    { message: message([readA, readB], 'tool_use') },
    { message: message([{ type: 'text', text: 'A and B.' }], 'end_turn') },
  ],
  outputs: { toolu_a: { content: '1: A' }, toolu_b: { throws: 'disk on fire' } },
};
const run = (loop: Loop, testCase: object = twoReads) =>
  runLoopCase(testCase as Parameters<typeof runLoopCase>[0], loop as never).then(
    (results) => JSON.parse(JSON.stringify(results)) as Record<string, unknown>[],
  );
// A request's messages, whole again (the driver gives a later request's as the ones after the request before's).
const messagesOf = (results: unknown[], k: number) =>
  (wholeRequests(results.slice(0, k + 1))[k] as { request: { messages: unknown[] } }).request.messages;

describe('runLoopCase: the fake Messages API', () => {
  it('serves the turns in order, records what each request asked for, and ends with the conversation', async () => {
    const results = await run(runLoop);
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({ request });
    const added = [
      { role: 'assistant', content: [readA, readB] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '1: A' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'disk on fire', is_error: true },
        ],
      },
    ];
    // Said once: the fields as the request before sent them, the messages after its messages.
    expect(results[1]).toEqual({ request: { as_before: ['model', 'max_tokens', 'tools'], new_messages: added } });
    expect(results[2]).toEqual({
      returned: [...request.messages, ...added, { role: 'assistant', content: [{ type: 'text', text: 'A and B.' }] }],
    });
  });

  it('records in full a field or messages that are not what the request before sent', async () => {
    const forgetful: Loop = async (client, execute, req) => {
      const conversation = (await runLoop(client, execute, req)) as unknown[];
      const { tools: _, ...rest } = req;
      return [conversation, await client.messages.create({ ...rest, messages: req.messages }).catch(() => null)];
    };
    const results = await run(forgetful);
    expect(results[2]).toEqual({ request: { as_before: ['model', 'max_tokens'], messages: request.messages } });
  });

  it('records only what a request asked for: a streamed request reads as a plain one', async () => {
    const streamed: Loop = async (client, _execute, req) => {
      const response = await client.messages.create({ ...req, stream: true as const });
      for await (const _ of response);
      return [];
    };
    expect((await run(streamed))[0]).toEqual({ request });
  });

  it('records a field the loop added that the request it was given lacks, with the graded ones', async () => {
    const warmer: Loop = async (client, _execute, req) => {
      const params = { ...req, temperature: 0 };
      await client.messages.create(params);
      return [];
    };
    expect((await run(warmer))[0]).toEqual({ request: { ...request, temperature: 0 } });
  });

  it("answers a streaming request with the turn's recorded bytes, as they are", async () => {
    const stream = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { ...message([], 'end_turn'), stop_reason: null } })}\n\nevent: ping\ndata: {"type": "ping"}\n\nevent: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`;
    const testCase = { request, turns: [{ message: message([], 'end_turn'), stream }], outputs: {} };
    let received = '';
    const raw: Loop = async (client) => {
      const response = await fetch(`${client.baseURL}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify({ ...request, stream: true }),
      });
      received = await response.text();
      return [];
    };
    await run(raw, testCase);
    expect(received).toBe(stream);
  });

  it('answers a request past the script with an API error, which the SDK throws, and records the request', async () => {
    const onceMore: Loop = async (client, execute, req) => {
      const conversation = await runLoop(client, execute, req as LoopRequest);
      return client.messages.create({ ...req, messages: conversation });
    };
    const results = await run(onceMore);
    expect(results).toHaveLength(4);
    expect(messagesOf(results, 2)).toHaveLength(4);
    expect(results[3]?.threw).toMatch(
      /^BadRequestError: 400 .*theinference: request 3 is past the end of the script \(2 turns\)/,
    );
  });

  it("answers the request after the last turn with the case's API error, which the SDK throws as it came", async () => {
    const api_error = { status: 529, type: 'overloaded_error', message: 'Overloaded' };
    const results = await run(runLoop, { ...twoReads, turns: twoReads.turns.slice(0, 1), api_error });
    expect(results).toHaveLength(3);
    expect(results[2]).toEqual({
      threw: 'OverloadedError: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
  });

  it('answers and records a request to another endpoint, without serving a turn', async () => {
    const counts: Loop = async (client, execute, req) => {
      await client.messages.countTokens({ model: req.model, messages: req.messages }).catch(() => undefined);
      return runLoop(client, execute, req);
    };
    const results = await run(counts);
    expect(results[0]).toEqual({ other: 'POST /v1/messages/count_tokens' });
    expect(results.slice(1, 3)).toEqual((await run(runLoop)).slice(0, 2));
  });

  it('records a throw of runLoop as its end, and a conversation that is no array as returned', async () => {
    expect((await run(async () => Promise.reject(new TypeError('nope')))).at(-1)).toEqual({ threw: 'TypeError: nope' });
    expect((await run(async () => undefined)).at(-1)).toEqual({ returned: null });
  });

  it('runs nothing for a case without turns (the startup probe)', async () => {
    expect(await runLoopCase({ turns: [], outputs: {} }, async () => expect.fail('ran'))).toEqual([]);
  });
});

describe('runLoopCase: the scripted execute', () => {
  // A loop that makes the calls given, in order, and returns what execute answered.
  const calls =
    (made: [string, unknown][]): Loop =>
    async (client, execute, req) => {
      await client.messages.create({ ...req });
      const answers: unknown[] = [];
      for (const [name, input] of made)
        answers.push(await Promise.resolve(execute(name, input)).catch((e: Error) => `threw ${e.message}`));
      return answers;
    };
  const answers = async (made: [string, unknown][]) => (await run(calls(made))).at(-1)?.returned;

  it("answers each tool_use in order with the case's output, and throws its error for { throws }", async () => {
    expect(
      await answers([
        ['Read', { path: 'a.txt' }],
        ['Read', { path: 'b.txt' }],
      ]),
    ).toEqual([{ content: '1: A' }, 'threw disk on fire']);
  });

  it('refuses a call that is not the next tool_use, saying which call was due', async () => {
    expect(await answers([['ls', undefined]])).toEqual([
      {
        content:
          'theinference\'s scripted execute: execute("ls", undefined) is not the call tool_use toolu_a asks for, execute("Read", {"path":"a.txt"})',
        is_error: true,
      },
    ]);
  });

  it('refuses a later tool_use called before an earlier one', async () => {
    expect(await answers([['Read', { path: 'b.txt' }]])).toEqual([
      {
        content:
          'theinference\'s scripted execute: execute("Read", {"path":"b.txt"}) is tool_use toolu_b\'s call, made before tool_use toolu_a\'s, execute("Read", {"path":"a.txt"})',
        is_error: true,
      },
    ]);
  });

  it('names in the end a refused call whose answer the loop sent nowhere, and only that one', async () => {
    const drops: Loop = async (client, execute, req) => {
      await client.messages.create({ ...req });
      const kept = await execute('Read', { path: 'b.txt' });
      await execute('ls', undefined);
      return [kept];
    };
    expect((await run(drops)).at(-1)).toEqual({
      returned: [expect.objectContaining({ is_error: true })],
      unasked_calls: [{ tool: 'ls' }],
    });
    expect((await run(runLoop)).at(-1)).not.toHaveProperty('unasked_calls');
  });

  it('refuses a call when no tool_use waits, and matches inputs whatever their key order', async () => {
    const made: [string, unknown][] = [
      ['Read', { path: 'a.txt' }],
      ['Read', { path: 'b.txt' }],
      ['Read', {}],
    ];
    expect((await answers(made)) as unknown[]).toContainEqual({
      content:
        'theinference\'s scripted execute: execute("Read", {}) was called, but no tool_use is waiting for a result',
      is_error: true,
    });
    const unordered = {
      ...twoReads,
      turns: [{ message: message([{ ...readA, input: { path: 'a.txt', view_range: [1, 2] } }], 'tool_use') }],
    };
    const loop: Loop = async (client, execute, req) => {
      await client.messages.create({ ...req });
      return [await execute('Read', { view_range: [1, 2], path: 'a.txt' })];
    };
    expect((await run(loop, unordered)).at(-1)).toEqual({ returned: [{ content: '1: A' }] });
  });
});

describe('runLoopCase: delays, and the request runLoop is given', () => {
  // The first read answers last: a loop that runs both at once sees b.txt's result first.
  const slowA = { ...twoReads, outputs: { toolu_a: { content: '1: A', delay_ms: 40 }, toolu_b: { content: '1: B' } } };
  const atOnce =
    (push: boolean): Loop =>
    async (client, execute, req) => {
      const messages = [...req.messages];
      for (;;) {
        const response = await client.messages.create({ ...req, messages });
        messages.push({ role: 'assistant', content: response.content });
        if (response.stop_reason !== 'tool_use') return messages;
        const uses = response.content.filter((b) => b.type === 'tool_use');
        const results: unknown[] = [];
        const each = uses.map(async (b) => {
          const output = await execute(b.name, b.input);
          const result = { type: 'tool_result', tool_use_id: b.id, content: output.content };
          if (push) results.push(result);
          return result;
        });
        const ordered = await Promise.all(each);
        messages.push({ role: 'user', content: (push ? results : ordered) as never });
      }
    };
  const ids = (results: unknown[]) =>
    (messagesOf(results, 1).at(-1) as { content: { tool_use_id: string }[] }).content.map((b) => b.tool_use_id);

  it("answers each call after its output's delay_ms, which is never part of what execute returns", async () => {
    const results = await run(runLoop, slowA);
    expect((messagesOf(results, 1).at(-1) as { content: unknown[] }).content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_a', content: '1: A' },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: '1: B' },
    ]);
  });

  it('lets calls made at once finish in the order of their delays', async () => {
    expect(ids(await run(atOnce(true), slowA))).toEqual(['toolu_b', 'toolu_a']);
    expect(ids(await run(atOnce(false), slowA))).toEqual(['toolu_a', 'toolu_b']);
  });

  it('says in the end which fields of the request runLoop changed, as they were when it ended', async () => {
    const pushes: Loop = async (client, execute, req) => {
      const conversation = (await runLoop(client, execute, req)) as never[];
      req.messages.push(...conversation.slice(req.messages.length));
      return req.messages;
    };
    const end = (await run(pushes)).at(-1) as { returned: unknown[]; request_changed: { messages: unknown[] } };
    expect(end.request_changed).toEqual({ messages: end.returned });
    expect((await run(runLoop)).at(-1)).not.toHaveProperty('request_changed');
  });

  it('says a field runLoop left as no JSON can write (a cycle) as what writing it threw, and still ends', async () => {
    const cycle: Loop = async (client, execute, req) => {
      const conversation = await runLoop(client, execute, req);
      const loopy: Record<string, unknown> = {};
      loopy.self = loopy;
      (req as unknown as Record<string, unknown>).system = loopy;
      return conversation;
    };
    const end = (await run(cycle)).at(-1) as { returned: unknown[]; request_changed: { system: unknown } };
    expect(end.returned).toHaveLength(4);
    // (canonical sorts keys as it writes, so a cycle overflows the stack rather than being named.)
    expect(end.request_changed.system).toMatch(/^not JSON: (TypeError|RangeError): /);
  });

  it.each([-1, 1.5, 1001, '10'])('refuses a delay_ms of %j, naming the output', async (delay) => {
    const bad = { ...twoReads, outputs: { ...twoReads.outputs, toolu_a: { content: '1: A', delay_ms: delay } } };
    expect(() => parseLoopCase(JSON.stringify(bad))).toThrow(
      '"outputs"."toolu_a".delay_ms must be a whole number of milliseconds from 0 to 1000',
    );
  });
});

describe('observeLoops: the loop probe', () => {
  it('runs each script and gives the requests it sent, whole, and the conversation it returned', async () => {
    const seen = (await observeLoops({ scripts: [twoReads, twoReads] }, runLoop as never)) as Record<string, unknown>[];
    const [results] = [await run(runLoop)];
    const whole = wholeRequests(results.slice(0, -1));
    // execute's calls: each the tool_use it answered, and when it finished.
    const calls = [
      { id: 'toolu_a', finished: 0 },
      { id: 'toolu_b', finished: 1 },
    ];
    expect(JSON.parse(JSON.stringify(seen))).toEqual([
      { requests: whole, calls, end: results.at(-1) },
      { requests: whole, calls, end: results.at(-1) },
    ]);
  });

  it('marks a call still running when the SDK sends the next request as overtaken by it (nothing awaited it)', async () => {
    const slow = { ...twoReads, outputs: { toolu_a: { content: '1: A', delay_ms: 40 }, toolu_b: { content: '1: B' } } };
    // forEach(async …): the calls start, and the results go out with whatever has come back by then.
    const unawaited: Loop = async (client, execute, req) => {
      const messages = [...req.messages];
      for (;;) {
        const response = await client.messages.create({ ...req, messages });
        messages.push({ role: 'assistant', content: response.content });
        if (response.stop_reason !== 'tool_use') return messages;
        const results: Anthropic.ToolResultBlockParam[] = [];
        response.content.forEach(async (b) => {
          if (b.type !== 'tool_use') return;
          results.push({ type: 'tool_result', tool_use_id: b.id, content: (await execute(b.name, b.input)).content });
        });
        messages.push({ role: 'user', content: results });
      }
    };
    const [seen] = (await observeLoops({ scripts: [slow] }, unawaited as never)) as { calls: unknown[] }[];
    // toolu_a had not even finished when the loop returned.
    expect(seen?.calls).toEqual([
      { id: 'toolu_a', overtaken: 2 },
      { id: 'toolu_b', finished: 0 },
    ]);
    const [awaited] = (await observeLoops({ scripts: [slow] }, runLoop as never)) as { calls: unknown[] }[];
    expect(awaited?.calls).toEqual([
      { id: 'toolu_a', finished: 0 },
      { id: 'toolu_b', finished: 1 },
    ]);
  });

  it('says a script is still pending when its loop never returns, and answers anyway', async () => {
    const never: Loop = async (client, _execute, req) => {
      await client.messages.create({ ...req });
      return new Promise(() => {});
    };
    const seen = (await observeLoops({ scripts: [twoReads] }, never as never)) as {
      end: unknown;
      requests: unknown[];
    }[];
    expect(seen.map((s) => [s.end, s.requests.length])).toEqual([[{ pending: true }, 1]]);
  });

  it('gives what the loop threw as its end', async () => {
    const throws: Loop = async () => {
      throw new TypeError('response.content is not iterable');
    };
    expect(await observeLoops({ scripts: [twoReads] }, throws as never)).toEqual([
      { requests: [], calls: [], end: { threw: 'TypeError: response.content is not iterable' } },
    ]);
  });

  it('answers a request that is not { scripts }, or a script that is not a loop case, with an error', async () => {
    expect(await observeLoops({ calls: [] }, runLoop as never)).toEqual({ error: 'the request is not { scripts }' });
    const bad = await observeLoops({ scripts: [{ turns: 'none' }] }, runLoop as never);
    expect(bad).toEqual({
      error: 'a script is not a loop case: Error: "turns" must be an array of { "message": {…} }',
    });
  });
});

describe("the driver's loop mode, by hand in this repository and as the grader runs it in a course", () => {
  let work = '';
  let caseFile = '';
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'theinference-program-loop-'));
    caseFile = join(work, 'two-reads.json');
    await writeFile(caseFile, JSON.stringify(twoReads));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });
  // In this repository, through the thin program.ts a student runs; in a course directory, the package's driver.
  const program = (args: string[], cwd = REPO, input = '') =>
    execa('node', ['--import', 'tsx', cwd === REPO ? 'program.ts' : driverEntry(), ...args], {
      cwd,
      input,
      reject: false,
      env: { TMPDIR: work, TSX_DISABLE_CACHE: '1' },
    });

  it('prints the results of a case file: each request, then the conversation', async () => {
    const { exitCode, stdout } = await program(['loop', caseFile]);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ results: await run(runLoop) });
  });

  it('reads cases from stdin and says, before each step, which request the loop heads for', async () => {
    const line = JSON.stringify(twoReads);
    const { exitCode, stdout } = await program(['loop', '-'], REPO, `{"turns":[],"calls":[]}\n${line}\n`);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n').map((l) => Object.keys(JSON.parse(l))[0])).toEqual([
      'results',
      'calling',
      'calling',
      'calling',
      'results',
    ]);
    expect(stdout).toContain('{"calling":{"call":3,"of":2,"tool":"request"}}');
  });

  it('refuses a case whose tool_use has no output, naming it (exit 2)', async () => {
    const bad = join(work, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...twoReads, outputs: { toolu_a: { content: '1: A' } } }));
    const { exitCode, stderr } = await program(['loop', bad]);
    expect(exitCode).toBe(2);
    expect(stderr).toBe(
      `error: cannot read case ${bad}: Error: "outputs" has no { "content": … } or { "throws": … } for tool_use toolu_b of turn 1`,
    );
  });

  it('runs the probe asked for by the first line after the last case, silencing what the loop prints', async () => {
    const course = join(work, 'probed');
    await mkdir(join(course, 'src'), { recursive: true });
    await writeFile(join(course, 'package.json'), '{ "type": "module" }\n');
    const reference = JSON.stringify(join(REPO, 'src', 'agent-loop.ts'));
    await writeFile(
      join(course, 'src', 'agent-loop.ts'),
      `import { runLoop as reference } from ${reference};\nexport const runLoop = (c: any, e: any, r: any) => (console.log('debug'), reference(c, e, r));\n`,
    );
    await symlink(join(REPO, 'node_modules'), join(course, 'node_modules'), 'dir');
    const first = JSON.stringify({ turns: [], observe: { scripts: [twoReads] } });
    const { exitCode, stdout, stderr } = await program(
      ['loop', '-'],
      course,
      `${first}\n${JSON.stringify(twoReads)}\n`,
    );
    expect(exitCode).toBe(0);
    // The case's print goes to stderr, as always; the probe's goes nowhere.
    expect(stderr).toBe('debug');
    const lines = stdout.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => Object.keys(l)[0])).toEqual([
      'results',
      'calling',
      'calling',
      'calling',
      'results',
      'observed',
    ]);
    const results = lines[4]!.results as unknown[];
    const calls = [
      { id: 'toolu_a', finished: 0 },
      { id: 'toolu_b', finished: 1 },
    ];
    expect(lines[5]).toEqual({
      observed: [{ requests: wholeRequests(results.slice(0, -1)), calls, end: results.at(-1) }],
    });
  });

  it("runs in a course directory that has only the stage's files: no src/execute.ts, no src/tools/", async () => {
    const course = join(work, 'course');
    await mkdir(join(course, 'src'), { recursive: true });
    await writeFile(join(course, 'package.json'), '{ "type": "module" }\n');
    await execa('cp', [join(REPO, 'src', 'agent-loop.ts'), join(course, 'src')]);
    await symlink(join(REPO, 'node_modules'), join(course, 'node_modules'), 'dir');
    const { exitCode, stdout } = await program(['loop', caseFile], course);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout).results).toHaveLength(3);
  });
});
