import type { ToolOutput } from './types.ts';

// An error result: what the model reads back when a call could not do its work.
export function fail(content: string): ToolOutput {
  return { content, is_error: true };
}

// Checks return either their value or the error to hand back; this tells the error apart.
export function isFailure(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && 'is_error' in value;
}

// The last resort that keeps the "never throws" promise: a bug in a tool becomes an error result, not a crash.
export async function guard(tool: string, run: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await run();
  } catch (error) {
    return fail(`Internal error in ${tool}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
