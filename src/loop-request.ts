// What the stage "Run the loop" hands a student's runLoop (docs/stages/agent-loop.md): the parameters of every
// request the loop sends, the conversation so far in place of `messages`.
import type Anthropic from '@anthropic-ai/sdk';

// The first request: its `messages` start the conversation.
export type LoopRequest = {
  model: string;
  max_tokens: number;
  system?: string | Anthropic.TextBlockParam[];
  tools: Anthropic.Tool[];
  messages: Anthropic.MessageParam[];
};

// What the stage "Compact the context" hands a student's runCompactLoop (docs/stages/compact-context.md): a loop's
// request plus the size, in estimated tokens, past which the loop compacts the conversation. The threshold is the
// loop's to read and never an API parameter: no request carries it.
export type CompactRequest = LoopRequest & { compact_threshold: number };
