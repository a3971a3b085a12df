// Reads a dispatch case's JSON (the grader validates it against cases/case.schema.json too, and both the grader's
// side, ./serve.ts, and the driver's, ./driver.ts, read cases with it); the error says which field is wrong so the
// author can fix it. Pure.
import { seedPathProblem } from '../../course/seed-path.ts';
import { isObject } from '../kit.ts';

export type FileSpec = string | { base64: string } | { symlink: string };
export type Call = { tool: string; input: Record<string, unknown> };
// A case as the driver runs it (parseCase checks one read from text; the recorder's replay builds its own).
export type Case = { files?: Record<string, FileSpec>; calls: Call[]; observe?: unknown };

// Checks one case's JSON; the error says which field is wrong so the author can fix it.
export function parseCase(text: string): Case {
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed)) throw new Error('a case must be a JSON object');
  const { files = {}, calls } = parsed;
  if (!isObject(files)) throw new Error('"files" must be an object of path -> contents');
  for (const [path, spec] of Object.entries(files)) {
    const ok =
      typeof spec === 'string' ||
      (isObject(spec) && (typeof spec.base64 === 'string' || typeof spec.symlink === 'string'));
    if (!ok) throw new Error(`"files"["${path}"] must be a string, {"base64": "…"} or {"symlink": "…"}`);
    const problem = seedPathProblem(path);
    if (problem !== undefined) throw new Error(problem);
  }
  if (!Array.isArray(calls)) throw new Error('"calls" must be an array of { "tool": …, "input": {…} }');
  calls.forEach((call: unknown, i) => {
    if (!isObject(call) || typeof call.tool !== 'string' || !isObject(call.input)) {
      throw new Error(`"calls"[${i}] must be { "tool": string, "input": object }`);
    }
  });
  const observe = parsed.observe === undefined ? {} : { observe: parsed.observe };
  return { files: files as Record<string, FileSpec>, calls: calls as Call[], ...observe };
}
