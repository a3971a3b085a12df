// How a loop's throw is said in its end (`{"threw": …}`), by the driver and by the contract alike. An API error the
// client threw is said by its class, its status and the body the API answered with, the words the SDK gave its
// message in 1.14 ("OverloadedError: 529 {"type":"error",…}"): later 1.x versions word their message otherwise
// ("529 Overloaded (path: /v1/messages, …)"), and the grader's install, or a student's, may hold any of them. Any
// other throw is said as every mode says one. Pure.
import { describeThrow } from '../kit.ts';

export function describeLoopThrow(error: unknown): string {
  try {
    if (error instanceof Error && isApiError(error))
      return `${error.name}: ${error.status} ${JSON.stringify(error.error)}`;
  } catch {
    // A body JSON cannot write: said as any other throw.
  }
  return describeThrow(error);
}

// The SDK's APIError, known by its shape (the class is the grader's SDK's, or the course's): a numeric status and
// the body it came with.
function isApiError(error: Error): error is Error & { status: number; error: object } {
  const { status, error: body } = error as Error & { status?: unknown; error?: unknown };
  return typeof status === 'number' && body !== null && typeof body === 'object';
}
