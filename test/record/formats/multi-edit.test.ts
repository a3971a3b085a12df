// A MultiEdit as the Edits it applied: each with the file the one before it left as its original.
import { describe, expect, it } from 'vitest';
import { expandMultiEdit } from '../../../src/record/formats/multi-edit.ts';
import type { ImportedCall } from '../../../src/record/types.ts';

const multi = (isError: boolean, originalFile?: string): ImportedCall => ({
  id: 'toolu_1',
  name: 'MultiEdit',
  input: {
    file_path: '/p/a.ts',
    edits: [
      { old_string: 'a', new_string: 'b' },
      { old_string: 'b', new_string: 'c', replace_all: true },
    ],
  },
  result: { content: 'Applied 2 edits', isError, line: 2, details: { filePath: '/p/a.ts', originalFile } },
  file: 'f.jsonl',
  line: 1,
});

describe('expandMultiEdit', () => {
  it('makes one Edit per edit, in order, each with the file as the edits before it left it', () => {
    const edits = expandMultiEdit(multi(false, 'a b\n'));
    expect(
      edits.map((e) => [
        e.id,
        e.name,
        e.input,
        (e.result?.details as { originalFile?: string } | undefined)?.originalFile,
      ]),
    ).toEqual([
      ['toolu_1#1', 'Edit', { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' }, 'a b\n'],
      ['toolu_1#2', 'Edit', { file_path: '/p/a.ts', old_string: 'b', new_string: 'c', replace_all: true }, 'b b\n'],
    ]);
  });

  it('leaves a MultiEdit that failed whole (it applied none of its edits), and any other call as it is', () => {
    const failed = multi(true, 'a\n');
    expect(expandMultiEdit(failed)).toEqual([failed]);
    const read = { ...failed, name: 'Read' };
    expect(expandMultiEdit(read)).toEqual([read]);
  });

  it('without the original file, the Edits carry none', () => {
    expect(expandMultiEdit(multi(false)).map((e) => 'originalFile' in ((e.result?.details ?? {}) as object))).toEqual([
      false,
      false,
    ]);
  });
});
