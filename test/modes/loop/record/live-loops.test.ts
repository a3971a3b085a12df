// A live capture read as loops: a real one (the SDK agent through the proxy) gives one loop whose request, turns and
// outputs are what the agent sent and received, a streamed turn keeping its bytes; a side request and a loop the
// recording cut off at a tool call are skipped with why; an agent that sends otherwise than the contract is noted.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLiveLoops } from '../../../../src/modes/loop/record/live-loops.ts';
import { readLoops } from '../../../../src/modes/loop/record/read-loops.ts';
import type { LoopSession } from '../../../../src/modes/loop/record/recorded-loop.ts';
import { useScratch } from '../../../grade/course-fixture.ts';
import { SCRIPT_TOOLS } from '../../../record/live/sdk-session.ts';
import { captureSdkSession } from './sdk-capture.ts';

const scratch = useScratch();
let capture: string;
let seen: { name: string; result: { content: string; is_error?: boolean } }[];
let session: LoopSession;

beforeAll(async () => {
  const recorded = await captureSdkSession(scratch.root);
  capture = recorded.capture;
  seen = JSON.parse(await readFile(join(recorded.rig.logDir, 'results.json'), 'utf8')) as typeof seen;
  session = await readLoops(capture);
}, 120_000);

describe('readLiveLoops, on a real capture', () => {
  it('reads the session as one loop, detected as a live capture: its first request as the agent sent it', () => {
    expect(session.format).toBe('live');
    expect(session.skipped).toEqual([]);
    expect(session.loops).toHaveLength(1);
    const [loop] = session.loops;
    expect(loop?.request.model).toBe('claude-sonnet-4-6');
    expect(loop?.request.max_tokens).toBe(2048);
    expect(loop?.request.system).toMatch(/^You are a coding agent\. Working directory: \//);
    expect(loop?.request.tools.map((t) => t.name)).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash']);
    expect(loop?.request.messages).toEqual([{ role: 'user', content: 'Change the greeting to goodbye.' }]);
    expect(loop?.defaults).toEqual([]);
    expect(loop?.differs).toBeUndefined();
  });

  it('keeps every turn in order, the streamed ones with their bytes and the message the SDK builds from them', () => {
    const turns = session.loops[0]!.turns;
    expect(turns.map((t) => t.message.stop_reason)).toEqual([
      'tool_use',
      'tool_use',
      'tool_use',
      'tool_use',
      'end_turn',
    ]);
    const names = turns.flatMap((t) => t.message.content.filter((b) => b.type === 'tool_use').map((b) => b.name));
    expect(names).toEqual(SCRIPT_TOOLS);
    // The agent streams even turns (from 0) and creates odd ones.
    expect(turns.map((t) => t.stream !== undefined)).toEqual([true, false, true, false, true]);
    expect(turns[0]?.stream).toMatch(/^event: message_start\n/);
    expect(turns[0]?.message.content[0]).toEqual({ type: 'text', text: 'Let me look around.' });
    expect(turns[0]?.message.content[2]).toMatchObject({ type: 'tool_use', name: 'Read', input: { path: 'greet.ts' } });
  });

  it("gives each tool_use the output the agent's execute returned, as its next request carried it", () => {
    const loop = session.loops[0]!;
    const ids = loop.turns.flatMap((t) =>
      t.message.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id)),
    );
    expect(ids.map((id) => loop.outputs[id])).toEqual(
      seen.map((s) =>
        s.result.is_error === true ? { content: s.result.content, is_error: true } : { content: s.result.content },
      ),
    );
  });
});

describe('readLiveLoops, on captures changed from the real one', () => {
  const lines = async () => (await readFile(capture, 'utf8')).split('\n').filter((l) => l !== '');
  const exchanges = (all: string[]) => all.filter((l) => JSON.parse(l).type === 'exchange');
  const write = async (name: string, all: string[]) => {
    const file = join(scratch.root, name);
    await writeFile(file, `${all.join('\n')}\n`);
    return readLiveLoops(file);
  };

  it('skips a loop the recording ends at a tool call, and a side request that calls no tool', async () => {
    const all = await lines();
    const last = exchanges(all).at(-1)!;
    const cut = all.filter((l) => l !== last);
    const side = JSON.parse(exchanges(all)[0]!) as { request: { body: string }; response: { body: string } };
    const body = { ...JSON.parse(side.request.body), messages: [{ role: 'user', content: 'Title this chat' }] };
    const title = JSON.stringify({
      type: 'message',
      id: 'msg_title',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: 'Goodbye' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const extra = JSON.stringify({
      ...side,
      id: 99,
      request: { ...side.request, body: JSON.stringify(body) },
      response: { ...side.response, body: title },
    });
    const read = await write('cut.jsonl', [...cut.slice(0, 3), extra, ...cut.slice(3)]);
    expect(read.loops).toEqual([]);
    expect(read.skipped).toEqual([
      {
        prompt: 'Change the greeting to goodbye.',
        why: 'it stops at a turn that calls a tool (the recording ended there)',
      },
      { prompt: 'Title this chat', why: 'the model called no tool in it: nothing of a loop to replay' },
    ]);
  });

  it('notes a request the agent sent otherwise than the contract (here, a tool dropped from the list)', async () => {
    const all = await lines();
    const third = exchanges(all)[2]!;
    const entry = JSON.parse(third) as { request: { body: string } };
    const body = JSON.parse(entry.request.body) as { tools: unknown[] };
    entry.request.body = JSON.stringify({ ...body, tools: body.tools.slice(1) });
    const read = await write(
      'other.jsonl',
      all.map((l) => (l === third ? JSON.stringify(entry) : l)),
    );
    expect(read.loops[0]?.differs).toEqual([3]);
  });

  it('refuses a file that is not a live capture', async () => {
    const file = join(scratch.root, 'not-a-capture.jsonl');
    await writeFile(file, '{"type":"user"}\n');
    await expect(readLiveLoops(file)).rejects.toThrow('not a live capture (its first line is no session line)');
  });
});
