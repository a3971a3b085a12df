// The workspace a live capture recorded before its agent started (its `workspace` line), for reading a kept capture
// back with the same seed the live recording used: `theinference record <capture.jsonl>` can lay it out with
// writeWorkspace (./write-workspace.ts) and use it as --files-from.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { FileSpec } from '../../course/types.ts';
import { CAPTURE_FORMAT } from './capture-format.ts';

// The files of the capture's workspace line, or undefined when `file` is not a live capture or has none. Reads only
// the first two lines: the session line, then the workspace.
export async function readCaptureWorkspace(file: string): Promise<Record<string, FileSpec> | undefined> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  try {
    let first = true;
    for await (const text of lines) {
      const line = parse(text);
      if (first && (line?.type !== 'session' || line.format !== CAPTURE_FORMAT)) return undefined;
      if (!first) return line?.type === 'workspace' && isFiles(line.files) ? line.files : undefined;
      first = false;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    lines.close();
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isFiles(value: unknown): value is Record<string, FileSpec> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
