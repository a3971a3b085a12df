// Writes a class's summary file, whole or not at all, in the format its extension named (report-paths.ts).
import { writeAtomically } from '../../course/snapshot-file.ts';
import {
  renderSummaryCsv,
  renderSummaryJson,
  type ReportFiles,
  type SummaryFormat,
} from '../../grade/report/class-summary.ts';
import type { ClassReport } from '../../grade/types.ts';

export async function writeSummary(
  summary: { file: string; format: SummaryFormat },
  report: ClassReport,
  files: ReportFiles,
): Promise<void> {
  const text = summary.format === 'csv' ? renderSummaryCsv(report, files) : renderSummaryJson(report, files);
  await writeAtomically(summary.file, text);
}
