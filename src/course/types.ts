// The case file format: cases/<stage>/<slug>.json, validated against cases/case.schema.json.
import type { Visibility } from './case-weight.ts';

export type FileSpec = string | { base64: string } | { symlink: string };

export type Call = { tool: string; input: Record<string, unknown> };

export type CaseFile = {
  $schema?: string;
  description: string;
  files?: Record<string, FileSpec>;
  calls: Call[];
  // What the case is worth (1 when absent) and who sees its expected result ('visible' when absent):
  // src/course/case-weight.ts.
  points?: number;
  visibility?: Visibility;
  // Where a recorded case came from (transcript file, tool_use id…); informational.
  source?: Record<string, unknown>;
};

// A case as the grader knows it: its stage, its slug (file name without .json) and its file.
export type Case = {
  stage: string;
  name: string;
  file: string;
  data: CaseFile;
};

// The snapshot file format: snapshots/<stage>/<slug>.json.
export type Snapshot = { results: unknown[] };
