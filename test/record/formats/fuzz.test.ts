// The importers never crash: thousands of seeded random damages to real transcripts (truncations, byte flips,
// dropped, duplicated and swapped lines, a forced wrong format) each end in a transcript or a problem, never a throw.
// A failing run prints its seed; `FUZZ_SEED=<n>` replays the sequence from there.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS } from '../../../src/record/formats/detect-format.ts';
import { importText, importTranscript } from '../../../src/record/import-transcript.ts';
import type { ImportedTranscript, ImportProblem, TranscriptFormat } from '../../../src/record/types.ts';
import { fixture, hasSharedTranscripts, shared } from './transcript-files.ts';

const RUNS = 3000;
const FILE_RUNS = 40;
const FIRST_SEED = Number(process.env.FUZZ_SEED ?? 20261130);

const corpus: Array<{ name: string; text: string }> = [
  'spotter/short.jsonl',
  'spotter/tool_heavy.jsonl',
  'claude-stream-json/stream-json.jsonl',
  'claude-code-constructed/parallel-cancel.jsonl',
  'anthropic-constructed/max-tokens-cut.sse',
  'ai-sdk/anthropic-json-tool.1.chunks.txt',
  'ai-sdk/anthropic-tool-search-regex.1.chunks.txt',
  'ai-sdk/anthropic-tool-no-args.json',
  'ai-sdk/openai-reasoning-encrypted-content.1.chunks.txt',
  'ai-sdk/azure-model-router.1.chunks.txt',
]
  .map((path) => ({ name: path, text: readFileSync(fixture(path), 'utf8') }))
  .concat(apiValues())
  .concat(
    hasSharedTranscripts
      ? [
          'claude-code/claude-reliability/hello-world-script/transcript.jsonl',
          'claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-a93ccab.jsonl',
        ].map((path) => ({
          name: path,
          text: readFileSync(shared(path), 'utf8'),
        }))
      : [],
  );

// Compact API values, one per line, so that line damage meets them as JSON: an Anthropic request and response,
// Chat Completions messages, Responses items.
function apiValues(): Array<{ name: string; text: string }> {
  const response = JSON.parse(readFileSync(fixture('ai-sdk/anthropic-tool-no-args.json'), 'utf8')) as {
    content: unknown[];
  };
  const anthropic = [
    {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: response.content },
      ],
    },
    {
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
              content: [{ type: 'text', text: 'ok' }],
            },
          ],
        },
      ],
    },
    response,
  ];
  const chat = [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
    {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'call_2', function: { name: 'read_file', arguments: '{"path":' } }] },
        },
      ],
    },
    {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
    },
  ];
  const responses = [
    { type: 'function_call', call_id: 'call_w', name: 'write_file', arguments: '{"path":"b.txt","content":"hi"}' },
    { type: 'function_call_output', call_id: 'call_w', output: 'ok' },
    {
      id: 'resp_1',
      object: 'response',
      output: [{ type: 'function_call', call_id: 'call_x', name: 'bash', arguments: '{}' }],
    },
  ];
  const jsonl = (values: unknown[]): string => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;
  return [
    { name: 'anthropic.jsonl', text: jsonl(anthropic) },
    { name: 'chat.jsonl', text: jsonl(chat) },
    { name: 'responses.jsonl', text: jsonl(responses) },
  ];
}

// mulberry32: small, fast and good enough to spread damage around.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JSON_BYTES = '{}[]",:\\\n 0a\u00e9\u0000';

// One random damage, sometimes several in a row.
function damage(text: string, next: () => number): string {
  const pick = (n: number): number => Math.floor(next() * n);
  let out = text;
  const rounds = 1 + pick(3);
  for (let r = 0; r < rounds; r++) {
    const lines = out.split('\n');
    switch (pick(8)) {
      case 0:
        out = out.slice(0, pick(out.length + 1));
        break;
      case 1: {
        const chars = [...out];
        for (let k = 1 + pick(8); k > 0 && chars.length > 0; k--)
          chars[pick(chars.length)] = JSON_BYTES[pick(JSON_BYTES.length)] as string;
        out = chars.join('');
        break;
      }
      case 2:
        out = lines.filter(() => next() > 0.3).join('\n');
        break;
      case 3: {
        const at = pick(lines.length);
        lines.splice(at, 0, ...lines.slice(at, at + 1 + pick(4)));
        out = lines.join('\n');
        break;
      }
      case 4: {
        const [i, j] = [pick(lines.length), pick(lines.length)];
        [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
        out = lines.join('\n');
        break;
      }
      case 5:
      case 6: {
        const at = pick(lines.length);
        lines[at] = reshape(lines[at] ?? '', next);
        out = lines.join('\n');
        break;
      }
      default: {
        const at = pick(lines.length);
        const line = lines[at] ?? '';
        lines[at] = line.slice(0, pick(line.length + 1));
        out = lines.join('\n');
      }
    }
  }
  return out;
}

const ODD_VALUES: unknown[] = [null, 0, -1, 'x', '', [], {}, [null], { type: 'tool_use' }, true];

// Valid JSON of the wrong shape: one node of a parsed line (or the whole line) replaced by an odd value, so the
// importers meet nulls, numbers and arrays where they expect objects and strings.
function reshape(line: string, next: () => number): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  const odd = (): unknown => structuredClone(ODD_VALUES[Math.floor(next() * ODD_VALUES.length)]);
  if (next() < 0.1) return JSON.stringify(odd());
  let node = value;
  for (let depth = 0; depth < 8; depth++) {
    if (typeof node !== 'object' || node === null) break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[Math.floor(next() * keys.length)] as string;
    const child = (node as Record<string, unknown>)[key];
    if (next() < 0.3 || typeof child !== 'object' || child === null) {
      (node as Record<string, unknown>)[key] = odd();
      break;
    }
    node = child;
  }
  return JSON.stringify(value);
}

// Each node of a parsed line replaced, in turn, by each odd value that is not of its own type.
function everyReshape(line: string): string[] {
  let root: unknown;
  try {
    root = JSON.parse(line);
  } catch {
    return [];
  }
  const variants: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const key of Object.keys(node)) {
      const record = node as Record<string, unknown>;
      const original = record[key];
      for (const odd of [null, 7, 'x', [], {}]) {
        if (
          typeof odd === typeof original &&
          Array.isArray(odd) === Array.isArray(original) &&
          (odd === null) === (original === null)
        )
          continue;
        record[key] = odd;
        variants.push(JSON.stringify(root));
      }
      record[key] = original;
      visit(original);
    }
  };
  visit(root);
  return variants;
}

function formatFor(next: () => number): TranscriptFormat | undefined {
  return next() < 0.7 ? undefined : TRANSCRIPT_FORMATS[Math.floor(next() * TRANSCRIPT_FORMATS.length)];
}

// What every outcome must be: a problem naming the file, or calls that each say what and where.
function checkOutcome(outcome: ImportedTranscript | ImportProblem, name: string): void {
  if (!('calls' in outcome)) {
    expect(outcome.file).toBe(name);
    expect(outcome.message.length).toBeGreaterThan(0);
    return;
  }
  expect(outcome.calls.length).toBeGreaterThan(0);
  expect(new Set(outcome.calls.map((c) => c.id)).size).toBe(outcome.calls.length);
  for (const call of outcome.calls) {
    expect(typeof call.name).toBe('string');
    expect(call.line).toBeGreaterThanOrEqual(1);
    expect(call.input !== undefined || call.malformed !== undefined).toBe(true);
  }
  for (const skip of outcome.skipped) expect(skip.reason.length).toBeGreaterThan(0);
}

describe('importer fuzz', () => {
  it(`${RUNS} damaged transcripts in memory: every one a transcript or a problem`, () => {
    let outcomes = { transcripts: 0, problems: 0 };
    for (let run = 0; run < RUNS; run++) {
      const seed = FIRST_SEED + run;
      const next = random(seed);
      const source = corpus[Math.floor(next() * corpus.length)] as (typeof corpus)[number];
      const text = damage(source.text, next);
      const format = formatFor(next);
      const name = `${source.name}#${seed}`;
      let outcome: ImportedTranscript | ImportProblem;
      try {
        outcome = importText(text, name, format === undefined ? {} : { format });
      } catch (error) {
        throw new Error(
          `seed ${seed} (${source.name}, format ${String(format)}) threw: ${error instanceof Error ? error.stack : String(error)}`,
        );
      }
      checkOutcome(outcome, name);
      outcomes =
        'calls' in outcome
          ? { ...outcomes, transcripts: outcomes.transcripts + 1 }
          : { ...outcomes, problems: outcomes.problems + 1 };
    }
    // Damage must leave many transcripts importable and break many: otherwise the fuzz tests nothing.
    expect(outcomes.transcripts).toBeGreaterThan(RUNS / 4);
    expect(outcomes.problems).toBeGreaterThan(RUNS / 20);
  });

  it('every node of every line replaced by a value of another type, one at a time', () => {
    const small = corpus.filter((c) =>
      [
        'claude-stream-json/stream-json.jsonl',
        'claude-code-constructed/parallel-cancel.jsonl',
        'ai-sdk/anthropic-json-tool.1.chunks.txt',
        'anthropic.jsonl',
        'chat.jsonl',
        'responses.jsonl',
      ].includes(c.name),
    );
    let imports = 0;
    for (const source of small) {
      const lines = source.text.split('\n');
      for (const [at, line] of lines.entries()) {
        for (const variant of everyReshape(line)) {
          const text = [...lines.slice(0, at), variant, ...lines.slice(at + 1)].join('\n');
          const name = `${source.name}:${at + 1}`;
          let outcome: ImportedTranscript | ImportProblem;
          try {
            outcome = importText(text, name);
          } catch (error) {
            throw new Error(
              `${name} with ${variant.slice(0, 300)} threw: ${error instanceof Error ? error.stack : String(error)}`,
            );
          }
          checkOutcome(outcome, name);
          imports += 1;
        }
      }
    }
    expect(imports).toBeGreaterThan(2000);
  });

  it(`${FILE_RUNS} damaged transcript files through importTranscript`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'theinference-fuzz-'));
    try {
      for (let run = 0; run < FILE_RUNS; run++) {
        const seed = FIRST_SEED + RUNS + run;
        const next = random(seed);
        const source = corpus[Math.floor(next() * corpus.length)] as (typeof corpus)[number];
        const file = join(dir, `run-${run}.jsonl`);
        await writeFile(file, damage(source.text, next));
        const format = formatFor(next);
        checkOutcome(await importTranscript(file, format === undefined ? {} : { format }), file);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
