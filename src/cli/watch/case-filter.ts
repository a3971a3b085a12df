// The case filter of watch mode's `p` prompt (or the `--case` patterns it started with), as the grader's
// `RunOptions.cases` patterns.

// What the student typed (shown in the header and menu) and the patterns handed to the grader.
export type CaseFilter = { label: string; cases: string[] };

// The filter for text typed at the prompt; undefined for blank text (which clears the filter). Plain text matches
// anywhere in a case name (`read` finds `read-alias-view`), as vitest's and jest's filters do; text with the
// grader's glob characters (`*`, `?`) is used as the glob it is.
export function filterOf(text: string): CaseFilter | undefined {
  const label = text.trim();
  if (label === '') return undefined;
  return { label, cases: [/[*?]/.test(label) ? label : `*${label}*`] };
}

// The filter watch mode starts with: the `--case` patterns as given, or none.
export function filterOfCases(cases: string[] | undefined): CaseFilter | undefined {
  if (cases === undefined || cases.length === 0) return undefined;
  return { label: cases.join(' '), cases: [...cases] };
}
