import { fail } from './output.ts';
import type { ToolOutput } from './types.ts';

// The dispatcher passes whatever the model sent; `undefined` and `null` both mean "not sent".
export function isMissing(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

// A required string argument, or the error naming the model-facing KEY that was lost or mistyped.
export function requireString(value: unknown, key: string): string | ToolOutput {
  if (isMissing(value)) return fail(`Missing required parameter '${key}'`);
  return typeof value === 'string' ? value : notAString(value, key);
}

// An optional string argument: absent is `undefined`, present must be a string.
export function optionalString(value: unknown, key: string): string | undefined | ToolOutput {
  if (isMissing(value)) return undefined;
  return typeof value === 'string' ? value : notAString(value, key);
}

// A string argument that must not be empty (old_str, glob patterns): '' would match everywhere or nowhere.
export function nonEmpty(value: string, key: string): string | ToolOutput {
  return value === '' ? fail(`Invalid parameter '${key}': it must not be empty`) : value;
}

// How a bad value is quoted back in error texts.
export function asJson(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function notAString(value: unknown, key: string): ToolOutput {
  return fail(`Invalid parameter '${key}': expected a string, got ${Array.isArray(value) ? 'array' : typeof value}`);
}
