// A case's recording from the pipeline's steps: each call's rule and the agent's own answer, in the case's order.
import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/record/map/prepare-steps.ts';
import type { CaseDraft, MappedCall } from '../../../src/record/record-types.ts';
import { recordingOf } from '../../../src/record/write/recording-of.ts';

const mapped = (id: string, kind: 'view' | 'bash'): MappedCall => ({
  id,
  call: { tool: kind === 'view' ? 'Read' : 'Bash', input: {} },
  originalTool: 'Read',
  renamedKeys: {},
  droppedKeys: {},
  check: { kind },
});
const step = (id: string, content: string, isError: boolean, details?: unknown): Step =>
  ({
    position: 0,
    imported: {
      id,
      name: 'Read',
      file: 't.jsonl',
      line: 1,
      result: { content, isError, line: 1, ...(details === undefined ? {} : { details }) },
    },
    subdir: '',
    evidence: { before: new Map(), changes: [] },
    ran: true,
  }) as Step;

describe('recordingOf', () => {
  it("keeps each call's id, rule and recorded result, details included, in the case's order", () => {
    const draft = {
      files: {},
      origins: {},
      calls: [mapped('b', 'bash'), mapped('a', 'view')],
      results: [],
    } as CaseDraft;
    const steps = [step('a', '     1→x', false, { file: { content: 'x' } }), step('b', 'Exit code 1', true)];
    expect(recordingOf(draft, steps)).toEqual({
      calls: [
        { id: 'b', check: { kind: 'bash' }, recorded: { content: 'Exit code 1', is_error: true } },
        {
          id: 'a',
          check: { kind: 'view' },
          recorded: { content: '     1→x', is_error: false, details: { file: { content: 'x' } } },
        },
      ],
    });
  });
});
