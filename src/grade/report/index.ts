// Picks a reporter by its --reporter name. Every non-terminal format gets the same diagnosis as the terminal,
// without colour, through `diagnose`.
import { renderFailure } from './render-failure.ts';
import type { CaseResult, RunReport } from '../types.ts';
import { render as renderGithub } from './github.ts';
import { render as renderGradescope } from './gradescope.ts';
import { render as renderHtml } from './html.ts';
import { render as renderJson } from './json.ts';
import { render as renderJunit } from './junit.ts';
import { renderPretty } from './pretty.ts';
import { REPORTER_NAMES, type ReporterName } from './names.ts';
import { render as renderTap } from './tap.ts';
import type { SourceFileOf } from './source-file.ts';

// The names, for callers that load the reporters anyway.
export { REPORTER_NAMES, type ReporterName };

// What every format is given: the plain diagnosis of a failed case, the command that re-runs the failures, where
// the student's file of a stage is for the format's consumer (src/grade/report/source-file.ts), and in a class, whose
// report it is (the submission's name).
export type RenderContext = {
  diagnose: (c: CaseResult) => string;
  rerunCommand?: string;
  fileOf?: SourceFileOf;
  submission?: string;
};
type Options = { color: boolean; rerunCommand?: string; fileOf?: SourceFileOf; submission?: string };
type Render = (report: RunReport, ctx: RenderContext) => string;

const FORMATS: Record<Exclude<ReporterName, 'pretty'>, Render> = {
  json: renderJson,
  junit: renderJunit,
  tap: renderTap,
  github: renderGithub,
  gradescope: renderGradescope,
  html: renderHtml,
};

// The whole report in the named format. Colour applies to the pretty reporter only.
export function renderReport(name: ReporterName, report: RunReport, options: Options): string {
  if (name === 'pretty') return renderPretty(report, options);
  const diagnose = (c: CaseResult): string => renderFailure(c, { color: false });
  return FORMATS[name](report, {
    diagnose,
    ...(options.rerunCommand === undefined ? {} : { rerunCommand: options.rerunCommand }),
    ...(options.fileOf === undefined ? {} : { fileOf: options.fileOf }),
    ...(options.submission === undefined ? {} : { submission: options.submission }),
  });
}

// Whether `name` is a reporter name.
export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}
