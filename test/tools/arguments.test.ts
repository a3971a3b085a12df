import { describe, expect, it } from 'vitest';
import type { Tools, ToolOutput } from '../../src/tools/index.ts';
import { asJson, optionalString, requireString } from '../../src/tools/arguments.ts';
import { useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const missing = (key: string): ToolOutput => ({ content: `Missing required parameter '${key}'`, is_error: true });
const notString = (key: string, type: string): ToolOutput => ({
  content: `Invalid parameter '${key}': expected a string, got ${type}`,
  is_error: true,
});

// Every method, called as a dispatcher that read the wrong key (or got the wrong type) would call it.
describe('every tool names the model-facing key it lost', () => {
  const rows: Array<{ name: string; call: (tools: Tools) => Promise<ToolOutput>; expected: ToolOutput }> = [
    { name: 'view: path undefined', call: (t) => t.view(undefined), expected: missing('path') },
    { name: 'view: path null', call: (t) => t.view(null), expected: missing('path') },
    { name: 'view: path a number', call: (t) => t.view(1), expected: notString('path', 'number') },
    { name: 'view: path an array', call: (t) => t.view(['a.txt']), expected: notString('path', 'array') },
    { name: 'view: path an object', call: (t) => t.view({ path: 'a.txt' }), expected: notString('path', 'object') },
    { name: 'view: path a boolean', call: (t) => t.view(true), expected: notString('path', 'boolean') },
    { name: 'create: path first', call: (t) => t.create(undefined, undefined), expected: missing('path') },
    { name: 'create: file_text', call: (t) => t.create('a.txt', undefined), expected: missing('file_text') },
    { name: 'strReplace: path', call: (t) => t.strReplace(undefined, 'a', 'b'), expected: missing('path') },
    { name: 'strReplace: old_str', call: (t) => t.strReplace('a.txt', undefined, 'b'), expected: missing('old_str') },
    {
      name: 'strReplace: new_str type',
      call: (t) => t.strReplace('a.txt', 'a', {}),
      expected: notString('new_str', 'object'),
    },
    { name: 'insert: path', call: (t) => t.insert(undefined, 0, 'x'), expected: missing('path') },
    { name: 'insert: insert_line', call: (t) => t.insert('a.txt', undefined, 'x'), expected: missing('insert_line') },
    { name: 'insert: insert_text', call: (t) => t.insert('a.txt', 0, undefined), expected: missing('insert_text') },
    { name: 'glob: pattern', call: (t) => t.glob(undefined), expected: missing('pattern') },
    { name: 'glob: path type', call: (t) => t.glob('*', ['.']), expected: notString('path', 'array') },
    { name: 'grep: pattern', call: (t) => t.grep(undefined), expected: missing('pattern') },
    { name: 'grep: pattern type', call: (t) => t.grep(/x/), expected: notString('pattern', 'object') },
    { name: 'grep: path type', call: (t) => t.grep('x', 1), expected: notString('path', 'number') },
    { name: 'bash: command', call: (t) => t.bash(undefined), expected: missing('command') },
  ];
  it.each(rows)('$name', async ({ call, expected }) => {
    await box.seed({ 'a.txt': 'a' });
    expect(await call(box.tools)).toEqual(expected);
    expect(await box.read('a.txt')).toBe('a');
  });
});

describe('argument helpers', () => {
  it('requireString passes strings through, empty included', () => {
    expect(requireString('', 'k')).toBe('');
    expect(requireString('x', 'k')).toBe('x');
  });

  it('optionalString treats undefined and null as not sent', () => {
    expect(optionalString(undefined, 'k')).toBeUndefined();
    expect(optionalString(null, 'k')).toBeUndefined();
    expect(optionalString(0, 'k')).toEqual(notString('k', 'number'));
  });

  it('asJson quotes values as JSON, falling back for what JSON cannot say', () => {
    expect(asJson([1, 'a'])).toBe('[1,"a"]');
    expect(asJson(undefined)).toBe('undefined');
  });
});
