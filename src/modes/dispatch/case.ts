// A dispatch stage's case file (register-tools; cases/case.schema.json, named by the mode's row in
// src/modes/mode-table.ts): files to seed, then calls fed through makeExecute. Code outside this mode holds a case
// as the shared CaseData (src/course/types.ts) and asks this file for what only a dispatch case has.
import type { Call, CaseData, FileSpec } from '../../course/types.ts';

export type DispatchCaseData = CaseData & {
  files?: Record<string, FileSpec>;
  calls: Call[];
};

// A dispatch case's calls; undefined for a case of another mode (a loop case has turns).
export function callsOf(data: CaseData | undefined): Call[] | undefined {
  return data !== undefined && 'calls' in data ? (data as DispatchCaseData).calls : undefined;
}
