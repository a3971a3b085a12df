// importTranscript's rules for bad input: a problem naming the file (and line) for a file that cannot be used, a
// counted skip for a line that cannot, never a throw; and --format.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, beforeEach } from 'vitest';
import { TRANSCRIPT_FORMATS } from '../../src/record/formats/detect-format.ts';
import { importText, importTranscript } from '../../src/record/import-transcript.ts';
import type { TranscriptFormat } from '../../src/record/types.ts';
import { fixture, imported, needsSharedTranscripts, shared } from './formats/transcript-files.ts';

let dir: string;
let heavy: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-import-'));
  heavy = await readFile(fixture('spotter/tool_heavy.jsonl'), 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const write = async (name: string, content: string | Uint8Array): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
};

describe('files that cannot be used at all', () => {
  it.each([
    ['an empty file', '', 'empty file'],
    ['blank lines only', '\n  \n\n', 'empty file: only blank lines'],
  ])('%s', async (_, content, message) => {
    const file = await write('blank.jsonl', content);
    expect(await importTranscript(file)).toEqual({ file, message });
  });

  it('a binary file', async () => {
    const file = await write(
      'image.png',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    );
    expect(await importTranscript(file)).toEqual({
      file,
      message: 'a binary file, not a transcript: it holds NUL bytes (UTF-16 text does too: save it as UTF-8)',
    });
  });

  it('a directory, and a path that does not exist', async () => {
    expect(await importTranscript(dir)).toEqual({
      file: dir,
      message: 'not a file: give the path of a transcript file',
    });
    const missing = join(dir, 'missing.jsonl');
    expect(await importTranscript(missing)).toEqual({ file: missing, message: 'no such file: check the path' });
  });

  it('text of no known format names line 1 and what was looked for', async () => {
    const file = await write('notes.txt', '\nsome notes\n{"a": 1}\n');
    expect(await importTranscript(file)).toEqual({
      file,
      line: 2,
      message: expect.stringMatching(
        /^no known transcript format: line 2 is neither JSON nor an SSE stream; looked for Claude Code session JSONL .* Use --format to force one\.$/,
      ),
    });
  });

  it('JSON values of no known API', () => {
    expect(importText('{"a": 1}\n{"b": 2}\n', 'values.jsonl')).toEqual({
      file: 'values.jsonl',
      message: expect.stringMatching(/^no known transcript format: 2 JSON values, none of them Claude Code/),
    });
  });

  it('a real transcript with no tool calls', async () => {
    const file = await write(
      'no-calls.jsonl',
      `${heavy
        .split('\n')
        .filter((l) => !l.includes('"tool_use"') && !l.includes('"tool_result"'))
        .join('\n')}\n`,
    );
    expect(await importTranscript(file)).toEqual({
      file,
      message: 'no tool calls (read as claude-code): the agent made none, so there is nothing to record',
    });
  });

  it('every line broken: the problem names the first bad line', async () => {
    const lines = heavy
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.slice(0, 40));
    const file = await write('broken.jsonl', lines.join('\n'));
    expect(await importTranscript(file, { format: 'claude-code' })).toEqual({
      file,
      line: 1,
      message: expect.stringMatching(
        new RegExp(
          `^no tool calls \\(read as claude-code, as --format said\\); ${lines.length} lines skipped, the first at line 1: not valid JSON`,
        ),
      ),
    });
  });
});

describe('lines that cannot be used are skipped and counted, the rest imported', () => {
  it('a line cut off mid-JSON (a transcript copied while still being written)', async () => {
    const file = await write('cut.jsonl', heavy.slice(0, heavy.indexOf('toolu_017Q5Sr8KaSgowYhbKXBnfV2') + 20));
    const t = imported(await importTranscript(file));
    expect(t.calls).toHaveLength(5);
    expect(t.skipped).toEqual([{ file, line: 37, reason: expect.stringMatching(/^not valid JSON/) }]);
  });

  it('a line over the length limit is skipped without being held, whatever its content', async () => {
    const lines = heavy.split('\n');
    const longest = Math.max(...lines.map((l) => Buffer.byteLength(l)));
    const file = await write('long.jsonl', heavy);
    const t = imported(await importTranscript(file, { maxLineBytes: longest - 1 }));
    const at = lines.findIndex((l) => Buffer.byteLength(l) === longest) + 1;
    expect(t.skipped).toEqual([{ file, line: at, reason: `line of ${longest} bytes is over the limit of one line` }]);
    expect(imported(importText(heavy, file, { maxLineBytes: longest - 1 })).skipped).toEqual(t.skipped);
  });

  it('lines far over 100,000 characters import whole', async () => {
    const big = 'x'.repeat(300_000);
    const long = heavy.replace(
      '"content":"Web search results for query:',
      `"content":"${big}Web search results for query:`,
    );
    const t = imported(await importTranscript(await write('very-long.jsonl', long)));
    expect(t.calls.find((c) => c.name === 'WebSearch')?.result?.content.startsWith(big)).toBe(true);
  });

  it('CRLF line ends read as LF', async () => {
    const t = imported(await importTranscript(await write('crlf.jsonl', heavy.replaceAll('\n', '\r\n'))));
    expect(t.calls).toEqual(imported(importText(heavy, t.files[0] as string)).calls);
  });
});

describe('--format', () => {
  it('lists every format an unknown value could have meant', async () => {
    expect(TRANSCRIPT_FORMATS).toEqual([
      'claude-code',
      'anthropic',
      'openai-chat',
      'openai-responses',
      'ai-sdk',
      'codex',
      'gemini',
      'pi',
      'live',
    ]);
    expect(await importTranscript(fixture('spotter/short.jsonl'), { format: 'claude' as TranscriptFormat })).toEqual({
      file: fixture('spotter/short.jsonl'),
      message:
        "unknown format 'claude': --format takes one of claude-code, anthropic, openai-chat, openai-responses, ai-sdk, codex, gemini, pi, live",
    });
  });

  it('forces the importer: Claude Code lines read as OpenAI Chat hold no calls, and the message says --format may be wrong', async () => {
    const result = await importTranscript(fixture('spotter/short.jsonl'), { format: 'openai-chat' });
    expect(result).toMatchObject({
      file: fixture('spotter/short.jsonl'),
      message: expect.stringMatching(
        /^no tool calls \(read as openai-chat, as --format said\);.*; if the file is of another format, leave --format out to have it detected$/,
      ),
    });
    const responses = await importTranscript(fixture('spotter/short.jsonl'), { format: 'openai-responses' });
    expect(responses).toEqual({
      file: fixture('spotter/short.jsonl'),
      message:
        'no tool calls (read as openai-responses, as --format said); if the file is of another format, leave --format out to have it detected',
    });
  });

  it('forcing claude-code reads a file whose first lines detection cannot use', async () => {
    const garbled = `${'garbage\n'.repeat(25)}${heavy}`;
    expect(importText(garbled, 'garbled.jsonl')).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^no known transcript format/),
    });
    const t = imported(importText(garbled, 'garbled.jsonl', { format: 'claude-code' }));
    expect(t.calls).toHaveLength(6);
    expect(t.skipped).toHaveLength(25);
  });

  it('detects each format from content', async () => {
    const formats = await Promise.all(
      [
        'spotter/short.jsonl',
        'claude-stream-json/stream-json.jsonl',
        'anthropic-constructed/max-tokens-cut.sse',
        'ai-sdk/anthropic-json-tool.1.chunks.txt',
        'ai-sdk/anthropic-tool-no-args.json',
      ].map(async (path) => imported(await importTranscript(fixture(path))).format),
    );
    expect(formats).toEqual(['claude-code', 'claude-code', 'anthropic', 'anthropic', 'anthropic']);
  });
});

describe('importText', () => {
  it('imports what importTranscript imports from the same bytes', async () => {
    await mkdir(join(dir, 'same'), { recursive: true });
    const file = await write('same/tool_heavy.jsonl', heavy);
    expect(importText(heavy, file)).toEqual(await importTranscript(file));
  });
});

describe('transcripts as people keep them', () => {
  it('a gzip-compressed transcript imports as its uncompressed self', async () => {
    await mkdir(join(dir, 'gz'), { recursive: true });
    const plain = await write('gz/tool_heavy.jsonl', heavy);
    const file = await write('tool_heavy.jsonl.gz', gzipSync(heavy));
    const [fromGzip, fromPlain] = [imported(await importTranscript(file)), imported(await importTranscript(plain))];
    expect(fromGzip.calls).toEqual(fromPlain.calls.map((c) => ({ ...c, file })));
    expect(fromGzip.calls.length).toBeGreaterThan(0);
  });

  it('a gzip file cut short says it does not decompress, not that it is binary', async () => {
    const whole = gzipSync(heavy);
    const file = await write('cut.jsonl.gz', whole.subarray(0, Math.floor(whole.length / 2)));
    const problem = await importTranscript(file);
    expect(problem).toMatchObject({ file, message: expect.stringMatching(/^a gzip file that does not decompress/) });
  });

  it.each([
    ['pretty-printed', 2],
    ['on one line', undefined],
  ])(
    'a JSON array of Claude Code lines (%s, as viewers export a session) imports as the session',
    async (_, indent) => {
      const lines = heavy
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as unknown);
      const file = await write('exported.json', JSON.stringify(lines, null, indent));
      const plain = imported(importText(heavy, 'tool_heavy.jsonl'));
      const array = imported(await importTranscript(file));
      expect(array.format).toBe('claude-code');
      expect(array.calls.map((c) => [c.id, c.name, c.input, c.result?.content])).toEqual(
        plain.calls.map((c) => [c.id, c.name, c.input, c.result?.content]),
      );
    },
  );

  it('a JSON array of a Codex rollout’s lines imports as the rollout', async () => {
    const rollout = await readFile(fixture('codex/rollout-shop.jsonl'), 'utf8');
    const lines = rollout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
    const array = imported(await importTranscript(await write('rollout.json', JSON.stringify(lines, null, 2))));
    expect(array).toMatchObject({ format: 'codex', cwd: '/home/dana/work/shop' });
    expect(array.calls).toHaveLength(8);
  });
});

describe('a gzip-compressed Claude Code session with subagents', () => {
  beforeEach(needsSharedTranscripts);
  const SPOTTER = 'claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46';

  it('brings its <session>/subagents/ files along (compressed or not) as the plain session does', async () => {
    const home = join(dir, 'gz-session');
    await mkdir(join(home, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46', 'subagents'), { recursive: true });
    const main = join(home, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl.gz');
    await writeFile(main, gzipSync(await readFile(shared(`${SPOTTER}.jsonl`))));
    const subagents = join(home, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46', 'subagents');
    await cp(shared(`${SPOTTER}/subagents/agent-a93ccab.jsonl`), join(subagents, 'agent-a93ccab.jsonl'));
    const second = await readFile(shared(`${SPOTTER}/subagents/agent-aa84377.jsonl`));
    await writeFile(join(subagents, 'agent-aa84377.jsonl.gz'), gzipSync(second));
    const [fromGzip, plain] = [
      imported(await importTranscript(main)),
      imported(await importTranscript(shared(`${SPOTTER}.jsonl`))),
    ];
    expect(fromGzip.files.map((f) => f.slice(home.length + 1))).toEqual([
      'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl.gz',
      'fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-a93ccab.jsonl',
      'fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-aa84377.jsonl.gz',
    ]);
    const shape = (t: typeof plain) => t.calls.map((c) => [c.id, c.agent ?? null]);
    expect(shape(fromGzip)).toEqual(shape(plain));
    expect(fromGzip.calls.some((c) => c.agent !== undefined)).toBe(true);
  });
});
