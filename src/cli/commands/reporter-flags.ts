// Which reports a `test` run writes, and where: `--reporter <name>` repeated for several formats in one run (as vitest
// takes several reporters), each to its own file given as `--reporter <name>:<file>`, or with `--output <file>` for the
// one reporter given without a file. At most one report goes to stdout. Parsed by commander's argParser (a bad name
// reads as commander's own "Allowed choices" error), planned here before anything runs.
import { InvalidArgumentError } from 'commander';
import { HarnessError } from '../../errors.ts';
import { REPORTER_NAMES, type ReporterName } from '../../grade/report/names.ts';
import { extensionOf } from './report-paths.ts';

// One --reporter as given: its name, and its own file when it has one.
export type ReporterChoice = { name: ReporterName; file?: string };

// One report the run writes: to `file`, or to stdout when it has none.
export type PlannedReport = { name: ReporterName; file?: string };

// commander's argParser for --reporter: `name` or `name:file`, collected in order.
export function collectReporter(value: string, previous: ReporterChoice[] | undefined): ReporterChoice[] {
  const at = value.indexOf(':');
  const name = at === -1 ? value : value.slice(0, at);
  if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
    throw new InvalidArgumentError(`Allowed choices are ${REPORTER_NAMES.join(', ')}.`);
  }
  const file = at === -1 ? undefined : value.slice(at + 1);
  if (file !== undefined && file.trim() === '') {
    throw new InvalidArgumentError(
      `Give the file after the colon, e.g. --reporter ${name}:report.${extensionOf(name as ReporterName)}.`,
    );
  }
  return [...(previous ?? []), { name: name as ReporterName, ...(file === undefined ? {} : { file }) }];
}

// The reports to write: `pretty` to stdout when none is named; --output goes to the one reporter without a file of its
// own. A HarnessError when two would share stdout, when --output is left over or ambiguous, or a format is named twice.
export function planReports(choices: ReporterChoice[], output: string | undefined): PlannedReport[] {
  const given: ReporterChoice[] = choices.length === 0 ? [{ name: 'pretty' }] : choices;
  const names = given.map((c) => c.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) {
    throw new HarnessError('BAD_FLAG', `--reporter ${twice} is given twice: name each format once.`);
  }
  const bare = given.filter((c) => c.file === undefined);
  if (output !== undefined) {
    if (bare.length !== 1) {
      const why =
        bare.length === 0
          ? 'but every --reporter has a file of its own'
          : `but ${bare.length} reporters have no file of their own (${bare.map((c) => c.name).join(', ')})`;
      throw new HarnessError(
        'BAD_FLAG',
        `--output names one report's file, ${why}: give each its file as --reporter <name>:<file>, e.g. --reporter junit:junit.xml --reporter json:results.json.`,
      );
    }
    return given.map((c) => (c.file === undefined ? { name: c.name, file: output } : c));
  }
  if (bare.length > 1) {
    throw new HarnessError(
      'BAD_FLAG',
      `${bare.map((c) => `--reporter ${c.name}`).join(' and ')} would all print to stdout: give all but one a file, e.g. --reporter ${bare[1]!.name}:report.${extensionOf(bare[1]!.name)}.`,
    );
  }
  const files = given.flatMap((c) => (c.file === undefined ? [] : [c.file]));
  const shared = files.find((f, i) => files.indexOf(f) !== i);
  if (shared !== undefined) {
    throw new HarnessError('BAD_FLAG', `two reporters write to ${JSON.stringify(shared)}: give each its own file.`);
  }
  return given;
}
