// The loop hints, one row per recogniser (a second spelling of a mistake beside the first), each read off the
// failure compareLoop gives for a loop that made that mistake: the hint names it, and its cause groups it.
import { describe, expect, it } from 'vitest';
import { compareLoop } from '../../../../src/modes/loop/judge/compare-loop.ts';
import { loopHintFor } from '../../../../src/modes/loop/judge/loop-hints.ts';
import {
  assistant1,
  assistant2,
  expected,
  loopCase,
  prompt,
  readA,
  readB,
  request,
  resultA,
  resultB,
  results1,
} from './loop-fixture.ts';

const user = (...content: unknown[]) => ({ role: 'user', content });
// The second request with these messages after the prompt, then a conversation ending as the reference's.
const second = (...messages: unknown[]) => [expected[0], request([prompt, ...messages]), expected[2]];

const ROWS: [mistake: string, received: unknown[], hint: RegExp, cause: string][] = [
  [
    'the stub',
    [{ threw: 'Error: runLoop is not written yet (src/agent-loop.ts): …' }],
    /^src\/agent-loop\.ts is still the stub/,
    'the stub',
  ],
  [
    'tools only on the first request',
    [expected[0], { request: { model: 'm', max_tokens: 10, messages: [prompt, assistant1, results1] } }, expected[2]],
    /^request 2 has no `tools`: send every field/,
    'tools not sent again',
  ],
  [
    'results in separate messages',
    second(assistant1, user(resultA), user(resultB)),
    /went in 2 user messages/,
    'tool results in separate user messages',
  ],
  [
    'assistant turn not appended',
    second(results1),
    /^the model's turn 1 is not in the conversation/,
    'assistant turn not appended',
  ],
  [
    'assistant turn as its text',
    second({ role: 'assistant', content: 'Reading.' }, results1),
    /^only the text of the model's turn 1 was appended/,
    'assistant turn appended as its text',
  ],
  [
    'a turn split into a message per block (its text as a string): every block there, so not "only its text"',
    second({ role: 'assistant', content: 'Reading.' }, { role: 'assistant', content: [readA] }, user(resultA), {
      role: 'assistant',
      content: [readB],
    }),
    /^the model's turn 1 went into the conversation as 3 assistant messages, a block each: append the turn as ONE message/,
    'assistant turn split into messages',
  ],
  [
    'a block of the turn left out, the others as they came',
    second({ role: 'assistant', content: [readA, readB] }, results1),
    /^the model's turn 1 went back without its text block "Reading\.": send every block as it came/,
    'blocks left out of a turn',
  ],
  [
    'a tool_result missing',
    second(assistant1, user(resultA)),
    /answers 1: send one tool_result for every tool_use/,
    'a tool_result missing',
  ],
  [
    'a tool_result paired with the wrong id',
    second(assistant1, user({ ...resultA, tool_use_id: 'msg_01' }, resultB)),
    /has tool_use_id "msg_01", but the tool_use it answers has id "toolu_a"/,
    'tool_result paired with the wrong id',
  ],
  [
    'two calls of one tool given one output (outputs kept by the tool name)',
    second(assistant1, user({ ...resultA, content: resultB.content, is_error: true }, resultB)),
    /^the 2 calls of Read in turn 1 got the same tool_result, the output execute gave for tool_use toolu_b: outputs kept by the tool's name/,
    'calls of one tool got one output',
  ],
  [
    'tool results out of order',
    second(assistant1, user(resultB, resultA)),
    /are out of order/,
    'tool results out of order',
  ],
  [
    'the whole ToolOutput as content',
    second(assistant1, user({ ...resultA, content: { content: '1: A' } }, resultB)),
    /^the whole ToolOutput went in/,
    'ToolOutput as content',
  ],
  [
    "the ToolOutput's JSON as content",
    second(assistant1, user({ ...resultA, content: '{"content":"1: A"}' }, resultB)),
    /^the ToolOutput's JSON went in/,
    'ToolOutput JSON as content',
  ],
  [
    'execute called with the wrong arguments',
    second(
      assistant1,
      user(
        {
          ...resultA,
          content: `theinference's scripted execute: execute("a.txt", undefined) is not the call tool_use toolu_a asks for, execute("Read", {"path":"a.txt"})`,
          is_error: true,
        },
        resultB,
      ),
    ),
    /^execute was called as execute\("a\.txt", undefined\): call it with the tool_use block's name and input/,
    'execute called with the wrong arguments',
  ],
  [
    'is_error dropped',
    second(assistant1, user(resultA, { ...resultB, is_error: undefined })),
    /set is_error: true on the tool_result/,
    'is_error dropped',
  ],
  [
    'is_error: false added',
    second(assistant1, user({ ...resultA, is_error: false }, resultB)),
    /has is_error: false: add is_error: true only when/,
    'is_error always set',
  ],
  [
    'stopped after the tools',
    [expected[0], { returned: [prompt, assistant1, results1] }],
    /^the loop ran the tools of turn 1, appended their results and returned: call the model again with them/,
    'stopped after the first tool call',
  ],
  [
    'stopped on text',
    [expected[0], { returned: [prompt, assistant1] }],
    /^turn 1 has text and stop_reason "tool_use", and the loop stopped there/,
    'stopped on text',
  ],
  [
    'went on after end_turn',
    [...expected.slice(0, 2), request([prompt, assistant1, results1, assistant2]), { threw: 'BadRequestError: 400' }],
    /^turn 2 ended with stop_reason "end_turn", and the loop called the model again/,
    'went on after the last turn',
  ],
  [
    'the last turn not returned',
    [...expected.slice(0, 2), { returned: [prompt, assistant1, results1] }],
    /lacks the model's last turn/,
    'last turn not in the returned conversation',
  ],
  [
    "the request's messages not returned",
    [...expected.slice(0, 2), { returned: [assistant1, results1, assistant2] }],
    /does not start with the request's messages/,
    "request's messages not in the returned conversation",
  ],
  [
    'a model of its own',
    [request([prompt], { model: 'claude-sonnet-4-5' }), ...expected.slice(1)],
    /^the first request has `model` "claude-sonnet-4-5", not "m": send the request's fields as runLoop was given them/,
    'model changed',
  ],
  [
    'a system prompt of its own where the request has none',
    [request([prompt], { system: '' }), ...expected.slice(1)],
    /^the first request has `system` "", which the request runLoop was given does not have: send the request's fields as runLoop was given them, none added/,
    'system added',
  ],
  [
    'the last response returned',
    [...expected.slice(0, 2), { returned: { id: 'msg_01', type: 'message', role: 'assistant', content: [] } }],
    /^runLoop returned the last response, not the conversation/,
    'returned something other than the conversation',
  ],
  [
    "tool results as role 'tool' messages",
    second(assistant1, { role: 'tool', tool_use_id: 'toolu_a', content: '1: A' }),
    /^the conversation has a message with role "tool": the Messages API has only "user" and "assistant" messages/,
    'a message role the API does not have',
  ],
  [
    'the whole response appended',
    second({ id: 'msg_01', type: 'message', ...assistant1, stop_reason: 'tool_use' }, results1),
    /^the model's turn 1 went in as the whole response, with its `id`, `type`, `stop_reason`: append only/,
    'whole response appended',
  ],
  [
    'the assistant turn after its results',
    second(results1, assistant1),
    /^the model's turn 1 went in after its tool results: append \{ role: 'assistant', content: response\.content \} first/,
    'assistant turn after its results',
  ],
  [
    'a tool_result without its type',
    second(assistant1, user({ tool_use_id: 'toolu_a', content: '1: A' }, resultB)),
    /^a result of turn 1 has no type: each result is \{ type: 'tool_result'/,
    'tool_result without its type',
  ],
  [
    'a tool_result without content (execute not awaited)',
    second(assistant1, user({ type: 'tool_result', tool_use_id: 'toolu_a' }, resultB)),
    /^a tool_result has no content: await execute's output before reading it/,
    'tool_result without content',
  ],
  [
    'content as text blocks',
    second(assistant1, user({ ...resultA, content: [{ type: 'text', text: '1: A' }] }, resultB)),
    /^a tool_result's content went in as an array of blocks/,
    'content as blocks',
  ],
  [
    'messages after the last turn',
    [...expected.slice(0, 2), { returned: [prompt, assistant1, results1, assistant2, user()] }],
    /^the conversation runLoop returned has a message after the model's last turn: look at stop_reason/,
    'messages after the last turn',
  ],
  [
    "the request's messages sent again (create(request))",
    [expected[0], request([prompt]), expected[2]],
    /^request 2 sends the request's messages as they were, without the conversation since/,
    'conversation not sent',
  ],
  [
    'an assistant turn without content (a Stream used as a Message)',
    second({ role: 'assistant' }, results1),
    /^the model's turn 1 went in without content: response\.content was undefined\. With stream: true/,
    'assistant turn without content',
  ],
  [
    'stream deltas not added (a tool input left {})',
    second(
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { ...readA, input: {} }, readB] },
      results1,
    ),
    /^the model's turn 1 went in without what its `input_json_delta` events carried/,
    'stream deltas not added',
  ],
  [
    'results sent as promises',
    second(assistant1, user({}, {})),
    /^the results of turn 1 went in as \{\}: each is a Promise, not a tool_result/,
    'results sent as promises',
  ],
  [
    "a field of the loop's own added to a block sent (prompt caching)",
    second(assistant1, user(resultA, { ...resultB, cache_control: { type: 'ephemeral' } })),
    /^request 2 sends its last message \(user\) with `cache_control` \{"type":"ephemeral"\} added to block 2 of 2 \(tool_result\), which the conversation does not have/,
    'a field added to the blocks sent',
  ],
  [
    "the output cut short, a note of the loop's own after it",
    second(assistant1, user(resultA, { ...resultB, content: 'File not… (cut)' })),
    /^a tool_result's content is the first 8 characters of the output's 21, then "… \(cut\)": send the output's text as execute gave it/,
    'output cut short',
  ],
  [
    "the output's text as a JSON string",
    second(assistant1, user({ ...resultA, content: JSON.stringify('1: A') }, resultB)),
    /^a tool_result's content is JSON\.stringify\(output\.content\)/,
    'content JSON-stringified',
  ],
  [
    "text put in front of an error's output",
    second(assistant1, user(resultA, { ...resultB, content: `Error: ${resultB.content}` })),
    /^a tool_result's content is an error's output with "Error: " in front of it/,
    "text added to an error's output",
  ],
  [
    'text put after every output',
    second(assistant1, user({ ...resultA, content: '1: A\n[done]' }, resultB)),
    /^a tool_result's content is the output's text with "\\n\[done\]" after it/,
    'text added to the output',
  ],
  [
    'an output cut short',
    second(assistant1, user({ ...resultA, content: '1:' }, resultB)),
    /^a tool_result's content is the first 2 characters of the output's 4/,
    'output cut short',
  ],
  [
    'the history cut to its last messages',
    [expected[0], request([results1]), expected[2]],
    /^request 2 sends the last 1 of the conversation's 3 messages: the model sees only what it is sent/,
    'history trimmed',
  ],
  [
    'the request given changed (the conversation pushed onto request.messages, or set there): both named, since the end shows the same',
    [
      ...expected.slice(0, 2),
      { ...expected[2], request_changed: { messages: (expected[2] as { returned: unknown[] }).returned } },
    ],
    /^runLoop added to request\.messages, in the request it was given \(pushed onto that array, or set it to an array of its own: request\.messages = …, Object\.assign\(request, \{ messages \}\)\): it had 1 message when runLoop was called and 4 when it ended/,
    'request changed',
  ],
];

describe('loop hints', () => {
  it.each(ROWS)('%s', (_, received, hint, cause) => {
    const failure = compareLoop(loopCase, expected, received);
    expect(failure?.hint).toMatch(hint);
    expect(failure?.hintCause).toBe(cause);
  });

  it('names a text-only turn appended as a string, and blocks rebuilt without some of their fields', () => {
    const cited = { type: 'text', text: 'Done.', citations: [{ type: 'char_location', cited_text: 'Done' }] };
    const at = (expectedMessage: unknown, receivedMessage: unknown) =>
      loopHintFor({
        data: loopCase.data,
        at: 'end',
        index: 0,
        expected: { returned: [prompt, expectedMessage] },
        received: { returned: [prompt, receivedMessage] },
        end: undefined,
      });
    const asString = at({ role: 'assistant', content: [cited] }, { role: 'assistant', content: 'Done.' });
    expect(asString?.cause).toBe('assistant turn appended as a string');
    expect(asString?.text).toMatch(
      /^the model's turn 1 went into the conversation as a string where response\.content/,
    );
    const rebuilt = at(
      { role: 'assistant', content: [cited] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    );
    expect(rebuilt?.cause).toBe('block fields dropped');
    expect(rebuilt?.text).toMatch(/without their `citations`: append the blocks as received/);
    // A field changed, not dropped, is not this mistake.
    const changed = at(
      { role: 'assistant', content: [cited] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done!' }] },
    );
    expect(changed?.cause).not.toBe('block fields dropped');
  });

  it("names the ToolOutput spread into a result only where execute's output has the field, with its value", () => {
    const withExitCode = {
      ...loopCase,
      data: { ...loopCase.data, outputs: { ...loopCase.data.outputs, toolu_a: { content: '1: A', exit_code: 0 } } },
    };
    const spread = second(assistant1, user({ ...resultA, exit_code: 0 }, resultB));
    const proved = compareLoop(withExitCode, expected, spread);
    expect(proved?.hint).toMatch(/^a tool_result carries `exit_code`, a field of the ToolOutput/);
    expect(proved?.hintCause).toBe('ToolOutput spread into the result');
    // The output has no exit_code: the field is the loop's own, named as added.
    const added = compareLoop(loopCase, expected, spread);
    expect(added?.hintCause).toBe('a field added to the blocks sent');
    expect(added?.hint).toMatch(/with `exit_code` 0 added to block 1 of 2 \(tool_result\)/);
  });

  it('says is_error comes from the output alone when a tool_result has is_error: true its output never gave', () => {
    const withFalse = {
      ...loopCase,
      data: {
        ...loopCase.data,
        outputs: { ...loopCase.data.outputs, toolu_a: { content: 'Error: 1: A', is_error: false } },
      },
    };
    const fromText = compareLoop(
      withFalse,
      expected,
      second(assistant1, user({ ...resultA, is_error: true }, resultB)),
    );
    expect(fromText?.hint).toMatch(
      /^this tool's output has is_error: false, and its tool_result has is_error: true: is_error comes from output\.is_error alone, never from what the content says/,
    );
    expect(fromText?.hintCause).toBe('is_error always set');
  });

  it("says what execute's output held when a tool_result passes its is_error: false on", () => {
    const withFalse = {
      ...loopCase,
      data: { ...loopCase.data, outputs: { ...loopCase.data.outputs, toolu_a: { content: '1: A', is_error: false } } },
    };
    const passedOn = compareLoop(
      withFalse,
      expected,
      second(assistant1, user({ ...resultA, is_error: false }, resultB)),
    );
    expect(passedOn?.hint).toMatch(
      /^this tool's output has is_error: false, and its tool_result has is_error: false: a tool_result carries is_error only when it is true \(is_error: output\.is_error copies a false\)/,
    );
    expect(passedOn?.hintCause).toBe('is_error always set');
  });

  it('names the fields left out of a list sent otherwise (a tool without its cache_control)', () => {
    const tool = { name: 'Bash', input_schema: { type: 'object' } };
    const failure = loopHintFor({
      data: loopCase.data,
      at: 'request',
      index: 0,
      expected: { tools: [tool, { ...tool, name: 'Read', cache_control: { type: 'ephemeral' } }] },
      received: { tools: [tool, { ...tool, name: 'Read' }] },
      end: undefined,
    });
    expect(failure?.text).toMatch(
      /^the first request has `tools` without the `cache_control` of item 2 \("Read"\): send/,
    );
    expect(failure?.cause).toBe('tools changed');
  });

  it('names the thinking block dropped or changed, and a throw let out of runLoop or worded otherwise', () => {
    const thinking = { type: 'thinking', thinking: 'Hmm.', signature: 'sig' };
    const turn = { role: 'assistant', content: [thinking, readA] };
    const data = { ...loopCase.data, outputs: { toolu_a: { throws: 'disk on fire' } } };
    const at = (expectedMessage: unknown, receivedMessage: unknown) =>
      loopHintFor({
        data,
        at: 'request',
        index: 1,
        expected: { messages: [prompt, expectedMessage] },
        received: { messages: [prompt, receivedMessage] },
        end: undefined,
      })?.cause;
    expect(at(turn, { role: 'assistant', content: [readA] })).toBe('thinking blocks dropped');
    expect(at(turn, { role: 'assistant', content: [{ ...thinking, signature: 'sig, shortened' }, readA] })).toBe(
      'thinking blocks edited',
    );
    const thrown = user({ ...resultA, content: 'disk on fire', is_error: true });
    expect(at(thrown, user({ ...resultA, content: 'Error: disk on fire', is_error: true }))).toBe(
      'a throw worded otherwise',
    );
    const escaped = {
      data,
      at: 'missing' as const,
      index: 1,
      expected: undefined,
      received: undefined,
      end: { threw: 'Error: disk on fire' },
    };
    expect(loopHintFor(escaped)?.cause).toBe('a throw from execute not caught');
  });

  it('names a catch around the whole loop: execute threw, and runLoop returned at that turn, unanswered', () => {
    // Turn 1 asks for one read, without text (with text, stopping on it reads the same).
    const turn1 = { ...loopCase.data.turns[0]!, message: { ...loopCase.data.turns[0]!.message, content: [readA] } };
    const data = {
      ...loopCase.data,
      turns: [turn1, loopCase.data.turns[1]!],
      outputs: { toolu_a: { throws: 'disk on fire' } },
    };
    const hintOf = (end: unknown) =>
      loopHintFor({ data, at: 'missing', index: 1, expected: expected[1], received: end, end })?.text;
    const asked = { role: 'assistant', content: [readA] };
    expect(hintOf({ returned: [prompt, asked] })).toMatch(
      /^execute threw at turn 1, and runLoop returned there, the turn's tools unanswered: catch a throw around each execute call/,
    );
    // Returned with the turn answered: not this.
    expect(hintOf({ returned: [prompt, asked, user(resultA)] })).not.toMatch(/^execute threw at turn 1/);
  });

  it('names a loop that went on by the blocks past a max_tokens turn', () => {
    const cut = {
      ...loopCase.data,
      turns: [{ message: { ...loopCase.data.turns[0]!.message, stop_reason: 'max_tokens' } }],
    };
    const ctx = { data: cut, at: 'extra' as const, index: 1, expected: undefined, received: undefined, end: undefined };
    expect(loopHintFor(ctx)?.text).toMatch(/^turn 1 holds a tool_use block but ended with stop_reason "max_tokens"/);
  });

  it('gives no hint where it recognises nothing', () => {
    const odd = second(assistant1, user(resultA, { ...resultB, content: 'something else', is_error: true }));
    expect(compareLoop(loopCase, expected, odd)?.hint).toBeUndefined();
  });
});
