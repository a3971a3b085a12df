// A Claude Code session read as loops: a real one from ../shared/transcripts/, and one made here line by line with
// what real sessions hold (blocks of one message on several lines, parallel results in another order, a subagent's
// lines, an interruption, a hook's feedback, a second prompt, results as text blocks).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_MAX_TOKENS, CLAUDE_CODE_SYSTEM } from '../../../../src/modes/loop/record/claude-code-defaults.ts';
import { readClaudeCodeLoops } from '../../../../src/modes/loop/record/claude-code-loops.ts';
import { needsSharedTranscripts, shared } from '../../../record/formats/transcript-files.ts';

const HELLO = shared('claude-code/claude-reliability/hello-world-script/transcript.jsonl');

const user = (content: unknown, extra: object = {}) => ({
  type: 'user',
  sessionId: 's-1',
  cwd: '/work',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (id: string, block: object, extra: object = {}) => ({
  type: 'assistant',
  sessionId: 's-1',
  timestamp: `2026-01-01T00:00:0${id.slice(-1)}Z`,
  message: { id, model: 'claude-opus-4-5-20251101', role: 'assistant', content: [block], stop_reason: null },
  ...extra,
});
const use = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
const result = (id: string, content: unknown, extra: object = {}) =>
  user([{ type: 'tool_result', tool_use_id: id, content, ...extra }]);

const LINES = [
  user('Read both notes.'),
  assistant('msg_1', { type: 'text', text: 'Reading them.' }),
  assistant('msg_1', use('toolu_a', 'Read', { file_path: '/work/a.md' })),
  assistant('msg_1', use('toolu_b', 'Read', { file_path: '/work/b.md' })),
  assistant('msg_x', use('toolu_x', 'Read', { file_path: '/elsewhere' }), { isSidechain: true }),
  result('toolu_b', [
    { type: 'text', text: 'B1' },
    { type: 'text', text: 'B2' },
  ]),
  result('toolu_a', 'A', { is_error: false }),
  assistant('msg_2', { type: 'text', text: 'A, then B1 and B2.' }),
  user('Stop hook feedback: are you done?', { isMeta: true }),
  assistant('msg_3', use('toolu_c', 'Bash', { command: 'ls' })),
  result('toolu_c', 'ls: cannot open', { is_error: true }),
  assistant('msg_4', { type: 'text', text: 'Done.' }),
  user('<command-name>/clear</command-name>'),
  user('Now run the tests.'),
  assistant('msg_5', use('toolu_d', 'Bash', { command: 'npm test' })),
  result('toolu_d', 'running'),
  user([{ type: 'text', text: '[Request interrupted by user]' }]),
];

let dir = '';
let file = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-loops-'));
  file = join(dir, 'session.jsonl');
  await writeFile(file, `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readClaudeCodeLoops', () => {
  it('makes a loop of each prompt that ran to its end, its turns grouped by message id, its results by tool_use id', async () => {
    const session = await readClaudeCodeLoops(file);
    expect([session.format, session.session, session.cwd]).toEqual(['claude-code', 's-1', '/work']);
    const [first] = session.loops;
    expect(first?.turns.map((t) => [t.message.id, t.message.stop_reason, t.message.content.length])).toEqual([
      ['msg_1', 'tool_use', 3],
      ['msg_2', 'end_turn', 1],
    ]);
    expect(first?.outputs).toEqual({ toolu_a: { content: 'A' }, toolu_b: { content: 'B1\nB2' } });
    expect(first?.request).toEqual({
      model: 'claude-opus-4-5-20251101',
      max_tokens: CLAUDE_CODE_MAX_TOKENS,
      system: CLAUDE_CODE_SYSTEM,
      tools: [expect.objectContaining({ name: 'Read' }), expect.objectContaining({ name: 'Bash' })],
      messages: [{ role: 'user', content: 'Read both notes.' }],
    });
    expect(first?.defaults).toEqual(['system', 'tools', 'max_tokens']);
    expect(first?.recorded).toBe('2026-01-01T00:00:01Z');
  });

  it("starts a loop at what Claude Code sent in the user's place, the conversation before it as its request's messages", async () => {
    const [, hook] = (await readClaudeCodeLoops(file)).loops;
    expect(hook?.prompt).toBe('Stop hook feedback: are you done?');
    expect(hook?.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(hook?.request.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'B1\nB2' },
      ],
    });
    expect(hook?.outputs).toEqual({ toolu_c: { content: 'ls: cannot open', is_error: true } });
  });

  it('skips, saying why, a loop the user interrupted; a command nobody answered is no loop at all', async () => {
    const session = await readClaudeCodeLoops(file);
    expect(session.loops).toHaveLength(2);
    expect(session.skipped).toEqual([
      { prompt: 'Now run the tests.', why: 'the user interrupted it before the model stopped' },
    ]);
  });

  it('reads the real hello-world session: one loop of three turns, and the hook turn that calls no tool skipped', async (context) => {
    needsSharedTranscripts(context);
    const session = await readClaudeCodeLoops(HELLO);
    expect(session.loops.map((l) => [l.turns.length, Object.keys(l.outputs).length])).toEqual([[3, 2]]);
    expect(session.loops[0]?.request.tools.map((t) => t.name)).toEqual(['Write', 'Bash']);
    expect(session.skipped).toEqual([
      { prompt: 'Stop hook feedback:', why: 'the model called no tool in it: nothing of a loop to replay' },
    ]);
  });
});
