// `theinference merge`: the class data each shard of a class run wrote (`test --shard i/n --class-data <file>`),
// read as one class: its page (--html, the html reporter's) and its summary (--summary), the same as one run of
// the whole class writes, and its summary table on stdout. Exit code 0 only when every submission passed, as the
// class run's.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writeAtomically } from '../../course/snapshot-file.ts';
import { HarnessError } from '../../errors.ts';
import { mergeClassData, parseClassData } from '../../grade/report/class-data.ts';
import { renderSummaryTable } from '../../grade/report/class-summary.ts';
import { renderClassHtml } from '../../grade/report/html.ts';
import { useColor, write, type CommandIo, type Outcome } from './io.ts';
import { checkOutputFile, clearOutputFile } from './output-file.ts';
import { summaryPath } from './report-paths.ts';
import { writeSummary } from './write-summary.ts';

export type MergeFlags = { files: string[]; html?: string; summary?: string };

export async function mergeCommand(flags: MergeFlags, io: CommandIo): Promise<Outcome> {
  if (flags.files.length === 0) {
    throw new HarnessError(
      'BAD_FLAG',
      'merge reads the class data of every shard: give their files, e.g. theinference merge shards/*/class-data.json --html class.html --summary summary.csv.',
    );
  }
  const page = flags.html === undefined ? undefined : await checkOutputFile(io.cwd, flags.html, '--html');
  const summary = flags.summary === undefined ? undefined : await summaryPath(io.cwd, flags.summary);
  const parts = [];
  for (const file of flags.files) {
    const text = await readFile(resolve(io.cwd, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new HarnessError(
        'BAD_CLASS_DATA',
        `${file} cannot be read (${error.code ?? error.message}): check the path.`,
      );
    });
    parts.push({ file, data: parseClassData(text, file) });
  }
  const { report, files } = mergeClassData(parts);
  for (const file of [page, summary?.file]) if (file !== undefined) await clearOutputFile(file);
  if (page !== undefined) await writeAtomically(page, renderClassHtml(report));
  if (summary !== undefined) await writeSummary(summary, report, files);
  const where = [
    ...(page === undefined ? [] : [`Report: ${flags.html}`]),
    ...(summary === undefined ? [] : [`Summary: ${flags.summary}`]),
  ];
  const from = `Merged ${parts.length} file${parts.length === 1 ? '' : 's'} of class data.`;
  await write(io.stdout, `${renderSummaryTable(report, { color: useColor(io) })}${[from, ...where].join('\n')}\n`);
  return report.submissions.every((s) => s.verdict === 'pass') ? 'pass' : 'fail';
}
