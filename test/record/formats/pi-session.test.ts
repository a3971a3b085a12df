// pi's session files: detected from their lines, the branch the session ended on followed from its leaf to the
// root, calls paired with their toolResult messages, pi's notes around a read and a command taken off.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { piResult } from '../../../src/record/formats/pi-session.ts';
import { importText, importTranscript } from '../../../src/record/import-transcript.ts';
import { fixture, imported } from './transcript-files.ts';

const SESSION = fixture('pi/session.jsonl');

describe('piResult', () => {
  it.each([
    ['bash', 'out\n\n\nCommand exited with code 2', true, { content: 'out', isError: true, details: { exit_code: 2 } }],
    ['bash', '(no output)\n\nCommand exited with code 1', true, { content: '', details: { exit_code: 1 } }],
    ['bash', '(no output)', false, { content: '', isError: false, details: { exit_code: 0 } }],
    ['bash', 'a\n', false, { content: 'a\n', details: { exit_code: 0 } }],
    [
      'bash',
      'Command timed out after 5 seconds',
      true,
      { content: 'Command timed out after 5 seconds', isError: true },
    ],
    [
      'read',
      'k\nl\n\n[Showing lines 11-12 of 40. Use offset=13 to continue.]',
      false,
      { content: 'k\nl', details: { shown: { start: 11, end: 12, total: 40 } } },
    ],
    [
      'read',
      'a\nb\n\n[Showing lines 1-2 of 9 (50.0KB limit). Use offset=3 to continue.]',
      false,
      { content: 'a\nb', details: { shown: { start: 1, end: 2, total: 9 } } },
    ],
    [
      'read',
      'c\nd\ne\n\n[7 more lines in file. Use offset=6 to continue.]',
      false,
      { content: 'c\nd\ne', details: { shown: { start: 3, end: 5, total: 12 } } },
    ],
    ['read', 'whole\n', false, { content: 'whole\n', isError: false }],
    ['edit', 'Successfully replaced text in a.ts.', false, { content: 'Successfully replaced text in a.ts.' }],
  ])('%s %j', (toolName, text, isError, result) => {
    const message = { role: 'toolResult', toolName, toolCallId: 'c', content: [{ type: 'text', text }], isError };
    const got = piResult(message, 4);
    expect(got).toMatchObject({ ...result, line: 4 });
    if (!('details' in result)) expect(got.details).toBeUndefined();
  });
});

describe('a pi session file', () => {
  it('is detected, and imports the calls of the branch it ended on, in order, each with its result', async () => {
    const transcript = imported(await importTranscript(SESSION));
    expect(transcript).toMatchObject({
      format: 'pi',
      sessionId: '3f2b9c1e-7a4d-4c8e-9b1f-5d6e7f8a9b0c',
      cwd: '/home/ada/shop',
      startedAt: '2026-03-10T09:00:00.000Z',
      endedAt: '2026-03-10T09:00:25.175Z',
    });
    expect(transcript.calls.map((c) => [c.line, c.name, c.input, c.result?.line])).toEqual([
      [5, 'write', { path: 'notes.txt', content: 'Mon-Fri 9-18\nSat 10-14\n' }, 6],
      [7, 'read', { path: '/home/ada/shop/notes.txt' }, 8],
      [9, 'edit', { path: 'notes.txt', oldText: 'Sunday', newText: 'Sunday closed' }, 10],
      [11, 'bash', { command: 'grep -c Sat notes.txt' }, 12],
      [21, 'edit', { path: 'notes.txt', oldText: 'Sat 10-14\n', newText: 'Sat 10-14\nSun closed\n' }, 22],
      [23, 'bash', { command: 'cat notes.txt', timeout: 10 }, 24],
      [23, 'bash', { command: 'cat missing.txt' }, 25],
    ]);
    // The tool error stays an error; the failing command's code is beside its output.
    expect(transcript.calls[2]?.result).toMatchObject({ isError: true, content: /^Could not find the exact text/ });
    expect(transcript.calls[6]?.result).toMatchObject({
      content: 'cat: missing.txt: No such file or directory',
      isError: true,
      details: { exit_code: 1 },
    });
    // Calls of one assistant message share its entry id.
    expect(transcript.calls[5]?.messageId).toBe(transcript.calls[6]?.messageId);
    expect(transcript.calls.every((c) => c.cwd === '/home/ada/shop')).toBe(true);
  });

  it('leaves out the branch the user left, counting its call, though it comes earlier in the file', async () => {
    const transcript = imported(await importTranscript(SESSION));
    expect(transcript.calls.map((c) => c.id)).not.toContain('toolu_01PiShop00000000000000B1');
    expect(transcript.skipped).toEqual([
      { file: SESSION, line: 15, reason: 'a call on a branch the pi session left (not on its last)' },
    ]);
  });

  it('follows the tree, not the file order: a branch ending last is the one read, wherever its lines are', async () => {
    const lines = (await readFile(SESSION, 'utf8')).trimEnd().split('\n');
    // The user goes back once more, to the left branch's last entry, and goes on there.
    const back = JSON.stringify({
      type: 'message',
      id: 'ffff0001',
      parentId: 'd5f6a7b8',
      timestamp: '2026-03-10T09:01:00.000Z',
      message: { role: 'user', content: 'Thanks.', timestamp: 1773133260000 },
    });
    const transcript = imported(importText([...lines, back].join('\n'), 'back.jsonl'));
    expect(transcript.calls.map((c) => c.input?.command ?? c.name)).toEqual([
      'write',
      'read',
      'edit',
      'grep -c Sat notes.txt',
      'wc -l notes.txt',
    ]);
    expect(transcript.skipped.map((s) => s.line)).toEqual([21, 23, 23]);
  });

  it('reads a version 1 file (no ids) as one line of entries', () => {
    const text = [
      { type: 'session', id: 's-1', timestamp: '2025-11-20T23:33:50.805Z', cwd: '/w/pi' },
      { type: 'model_change', timestamp: '2025-11-20T23:33:51.000Z', provider: 'anthropic', modelId: 'claude' },
      {
        type: 'message',
        timestamp: '2025-11-20T23:33:54.572Z',
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'a' } }],
        },
      },
      {
        type: 'message',
        timestamp: '2025-11-20T23:33:54.575Z',
        message: { role: 'toolResult', toolCallId: 't1', toolName: 'read', content: [{ type: 'text', text: 'x' }] },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const transcript = imported(importText(text, 'v1.jsonl'));
    expect(transcript.format).toBe('pi');
    expect(transcript.calls).toMatchObject([{ id: 't1', name: 'read', result: { content: 'x', isError: false } }]);
  });

  it('skips a truncated last line, naming its line, and reads the rest', async () => {
    const text = await readFile(SESSION, 'utf8');
    const cut = text.slice(0, text.trimEnd().lastIndexOf('\n') + 40);
    const transcript = imported(importText(cut, 'cut.jsonl'));
    expect(transcript.calls).toHaveLength(7);
    expect(transcript.skipped).toContainEqual({
      file: 'cut.jsonl',
      line: 26,
      reason: expect.stringMatching(/^not valid JSON \(/),
    });
  });

  it('is a problem naming both lines when a broken line cuts the branch it ended on', async () => {
    const lines = (await readFile(SESSION, 'utf8')).trimEnd().split('\n');
    lines[11] = (lines[11] as string).slice(0, 50);
    expect(importText(lines.join('\n'), 'broken.jsonl')).toEqual({
      file: 'broken.jsonl',
      line: 13,
      message: expect.stringMatching(
        /^the pi session's branch cannot be followed: the entry on line 13 names parent e0a1b2c3, which no line holds; line 12 is not valid JSON \(.*\)\. The file is damaged/,
      ),
    });
  });

  it('is read from a JSON array of its lines, element N as line N', async () => {
    const lines = (await readFile(SESSION, 'utf8')).trimEnd().split('\n');
    const array = JSON.stringify(
      lines.map((l) => JSON.parse(l) as unknown),
      null,
      2,
    );
    const transcript = imported(importText(array, 'export.json'));
    expect(transcript.format).toBe('pi');
    expect(transcript.calls.map((c) => [c.line, c.name])).toEqual(
      imported(await importTranscript(SESSION)).calls.map((c) => [c.line, c.name]),
    );
  });

  it("is read with --format pi, and pi's print-mode events are still named as unread", async () => {
    expect(imported(await importTranscript(SESSION, { format: 'pi' })).calls).toHaveLength(7);
    expect(await importTranscript(fixture('agent-event-streams/pi-print-mode.jsonl'))).toMatchObject({
      message: expect.stringMatching(/^pi's print-mode events/),
    });
  });
});
