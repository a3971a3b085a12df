// Where a class run writes its files, checked before anything runs: one report per submission from --output (a
// pattern holding {name}, or a directory that gets <name>.<extension>), and the summary from --summary (its
// extension names the format). A report is never written inside a submission: that directory is the student's.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { HarnessError } from '../../errors.ts';
import type { ReporterName } from '../../grade/report/names.ts';
import { SUMMARY_FORMATS, type SummaryFormat } from '../../grade/report/class-summary.ts';
import type { Submission } from '../../grade/types.ts';
import { unseenClass } from '../../unseen-characters.ts';
import { checkOutputFile } from './output-file.ts';

// What --output's pattern puts a submission's name in place of.
export const NAME_TOKEN = '{name}';

// The extension each reporter's files get in an --output directory (and in the CLI's examples).
export function extensionOf(name: ReporterName): string {
  return EXTENSIONS[name];
}

const EXTENSIONS: Record<ReporterName, string> = {
  pretty: 'txt',
  json: 'json',
  junit: 'xml',
  tap: 'tap',
  github: 'log',
  gradescope: 'json',
  html: 'html',
};

// What a submission's name becomes in a report's file name: the name itself when every tool that moves report files
// takes it, else the name with each character they refuse (a control character, a line break, a double quote, one of
// : < > | * ? \ that GitHub's upload-artifact and Windows refuse, a bidirectional or invisible format character
// that would show the name otherwise) made "_", and a hash of the whole name after it, so that two names that
// differ only there still get two files.
export function fileNameOf(name: string): string {
  const safe = name.replace(UNSAFE_IN_FILE_NAMES, '_');
  return safe === name ? name : hashed(name);
}

// The name made safe, with a hash of the whole name after it.
function hashed(name: string): string {
  return `${name.replace(UNSAFE_IN_FILE_NAMES, '_')}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

// Each name's file name in a class: fileNameOf's, except where two names would get one (a directory named as
// another's file name is, `rlo_gnp.exe-0c9fdaa9`): each of those gets its hash too. So no name, chosen by one
// student, can take another's file or stop the class run; and the same class gives the same names.
export function fileNamesOf(names: string[]): Map<string, string> {
  const taken = new Map<string, number>();
  for (const name of names) taken.set(fileNameOf(name), (taken.get(fileNameOf(name)) ?? 0) + 1);
  return new Map(names.map((name) => [name, taken.get(fileNameOf(name))! > 1 ? hashed(name) : fileNameOf(name)]));
}

const UNSAFE_IN_FILE_NAMES = unseenClass(['c0', 'del', 'c1', 'bidi', 'separators', 'zeroWidth'], 'gu', '":<>|*?\\\\');

// Each submission's report file, by name; a HarnessError when --output cannot hold one file per submission, or
// when a file would land inside a submission.
export async function reportPaths(
  cwd: string,
  output: string,
  submissions: Submission[],
  reporter: ReporterName,
): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  const fileNames = fileNamesOf(submissions.map((s) => s.name));
  if (output.includes(NAME_TOKEN)) {
    for (const s of submissions)
      paths.set(s.name, await checkOutputFile(cwd, output.split(NAME_TOKEN).join(fileNames.get(s.name)!)));
  } else {
    const dir = resolve(cwd, output);
    const info = await stat(dir).catch(() => undefined);
    if (info?.isDirectory() !== true) {
      // A file's name (`out.xml`) becomes a pattern beside it (`out-{name}.xml`); a directory's gets one inside it.
      const ext = extname(output);
      const example =
        ext !== '' && !output.endsWith('/')
          ? `${output.slice(0, -ext.length)}-${NAME_TOKEN}${ext}`
          : `${output.replace(/\/+$/, '') || 'reports'}/${NAME_TOKEN}.${EXTENSIONS[reporter]}`;
      const why = output.endsWith('/')
        ? `is a directory that does not exist: create it first (mkdir -p ${output}), or`
        : `names one file for ${submissions.length} submissions: give a directory that exists (each report is <name>.${EXTENSIONS[reporter]} in it), or`;
      throw new HarnessError(
        'BAD_FLAG',
        `--output ${JSON.stringify(output)} ${why} a pattern, e.g. --output '${example}'.`,
      );
    }
    for (const s of submissions)
      paths.set(s.name, await checkOutputFile(cwd, join(dir, `${fileNames.get(s.name)!}.${EXTENSIONS[reporter]}`)));
  }
  if (new Set(paths.values()).size < paths.size) {
    throw new HarnessError(
      'BAD_FLAG',
      `--output ${JSON.stringify(output)} gives several submissions the same file: keep ${NAME_TOKEN} in the file's own name, e.g. --output 'reports/${NAME_TOKEN}.${EXTENSIONS[reporter]}'.`,
    );
  }
  for (const [name, file] of paths) {
    const inside = submissions.find((s) => isWithin(s.dir, file));
    if (inside !== undefined) {
      throw new HarnessError(
        'BAD_FLAG',
        `--output would write ${name}'s report to ${file}, inside the submission ${inside.dir}: write reports outside the submissions (a student's directory is theirs), e.g. --output 'reports/${NAME_TOKEN}.${EXTENSIONS[reporter]}'.`,
      );
    }
  }
  return paths;
}

// The html reporter's one page for a class: --output names a file, never inside a submission; a HarnessError
// when it is missing or a pattern.
export async function classPagePath(
  cwd: string,
  output: string | undefined,
  submissions: Submission[],
): Promise<string> {
  if (output === undefined || output.includes(NAME_TOKEN)) {
    throw new HarnessError(
      'BAD_FLAG',
      `--reporter html writes one page for the whole class: give --output a file name${output === undefined ? '' : ` without ${NAME_TOKEN}`}, e.g. --output class.html.`,
    );
  }
  const file = await checkOutputFile(cwd, output);
  const inside = submissions.find((s) => isWithin(s.dir, file));
  if (inside !== undefined) {
    throw new HarnessError(
      'BAD_FLAG',
      `--output would write the class's page to ${file}, inside the submission ${inside.dir}: write it outside the submissions (a student's directory is theirs), e.g. --output class.html.`,
    );
  }
  return file;
}

// The --summary file and its format; a HarnessError for another extension or a file that cannot be written.
export async function summaryPath(cwd: string, summary: string): Promise<{ file: string; format: SummaryFormat }> {
  const format = extname(summary).slice(1).toLowerCase();
  if (!(SUMMARY_FORMATS as readonly string[]).includes(format)) {
    throw new HarnessError(
      'BAD_FLAG',
      `--summary ${JSON.stringify(summary)}: its extension names the format, .json or .csv, e.g. --summary summary.csv.`,
    );
  }
  return { file: await checkOutputFile(cwd, summary, '--summary'), format: format as SummaryFormat };
}

function isWithin(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
}
