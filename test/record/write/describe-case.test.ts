// A recorded case's words: what a student reads when it fails, its name.
import { describe, expect, it } from 'vitest';
import type { CaseDraft, MappedCall } from '../../../src/record/record-types.ts';
import { caseFileFor, defaultName, visibleLine } from '../../../src/record/write/describe-case.ts';
import { transcript } from '../calls.ts';

const read = (path: string): MappedCall => ({
  id: 'toolu_1',
  call: { tool: 'Read', input: { path } },
  originalTool: 'Read',
  renamedKeys: { file_path: 'path' },
  droppedKeys: {},
  check: { kind: 'view' },
});
const draft = (calls: MappedCall[]): CaseDraft => ({ files: {}, origins: {}, calls, results: [] });

describe('the description', () => {
  it('names the session, the tools and the files', () => {
    const data = caseFileFor(draft([read('<sandbox>/a.ts'), read('<sandbox>/b.ts')]), transcript([]));
    expect(data.description).toBe(
      'Replays 2 calls from a real Claude Code session (0123abcd; Read ×2; files a.ts, b.ts); the reference reproduced every recorded result.',
    );
  });

  it("shows a session id's or a file name's control characters, on one line", () => {
    const data = caseFileFor(
      draft([read('<sandbox>/a\u001b[2J\nb.ts')]),
      transcript([], { sessionId: 'ab\u0007\u202ecd-0' }),
    );
    expect(data.description).toBe(
      'Replays 1 call from a real Claude Code session (ab\u2407\\u202ecd-0; Read; files a\u241b[2J\u240ab.ts); the reference reproduced every recorded result.',
    );
  });

  it('is one visible line for any text', () => {
    expect(visibleLine('a\tb\r\nc\u0000')).toBe('a\u2409b\u240ac\u2400');
  });
});

describe('defaultName', () => {
  it.each([
    ['/x/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl', 'recorded-fa812bfe'],
    ['/x/hello-world-script/transcript.jsonl', 'recorded-hello-world-script'],
    ['/x/Évil\u001b[2J name.jsonl', 'recorded-vil-2j-name'],
  ])('%j -> %j', (file, name) => {
    expect(defaultName(transcript([], { files: [file] }))).toBe(name);
  });
});
