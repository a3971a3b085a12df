// Your compacting loop, the one file this stage asks you to write (course page "Compact the context").
// Grade it with `npm run watch`: every case fails with the message below until runCompactLoop calls the model.
import type Anthropic from '@anthropic-ai/sdk';
import type { CompactRequest, Execute } from 'theinference';

// Your loop of "Run the loop", plus three layers: before every request, older long tool results become
// placeholders; past request.compact_threshold, or after a `compact` call, the conversation is written to
// .transcripts/ and replaced by a summary the model writes. Returns the conversation as it stands at the end.
export async function runCompactLoop(
  client: Anthropic,
  execute: Execute,
  request: CompactRequest,
): Promise<Anthropic.MessageParam[]> {
  // Replace this with the loop: start from your runLoop, then add micro-compaction, the threshold and `compact`.
  throw new Error(
    'runCompactLoop is not written yet (src/compact-loop.ts): start from your runLoop and compact the conversation, as the course page "Compact the context" shows',
  );
}
