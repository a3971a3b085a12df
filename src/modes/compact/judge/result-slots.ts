// The tool_results of a conversation as micro-compaction sees them: in order, each with its tool_use's id and tool
// name, its content (a list of blocks as its canonical JSON: the same blocks in another key order are the same),
// whether that content is text (only text is ever replaced), whether it is a placeholder, whether it is an error,
// and its rank from the end
// (1: the most recent). Pure.
import { UNKNOWN_TOOL } from '../../../compact-contract.ts';
import { canonical } from '../../kit.ts';

export type ResultSlot = {
  id: string;
  tool: string;
  content: string;
  text: boolean;
  length: number;
  placeholder: boolean;
  // The block says is_error: true.
  isError: boolean;
  rank: number;
};

const PLACEHOLDER = /^\[Previous: used [^\]]*\]$/;

type Block = Record<string, unknown>;

export function resultSlots(messages: unknown[]): ResultSlot[] {
  const blocks = messages.flatMap((m) =>
    m !== null && typeof m === 'object' && Array.isArray((m as Block).content) ? ((m as Block).content as Block[]) : [],
  );
  const names = new Map(blocks.filter((b) => b?.type === 'tool_use').map((b) => [String(b.id), String(b.name)]));
  const results = blocks.filter((b) => b?.type === 'tool_result');
  return results.map((b, i) => {
    const text = typeof b.content === 'string';
    const content = typeof b.content === 'string' ? b.content : canonical(b.content ?? '');
    const id = String(b.tool_use_id);
    return {
      id,
      tool: names.get(id) ?? UNKNOWN_TOOL,
      content,
      text,
      length: content.length,
      placeholder: PLACEHOLDER.test(content),
      isError: b.is_error === true,
      rank: results.length - i,
    };
  });
}
