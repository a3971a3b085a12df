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
