// The --reporter names on their own, so the CLI can list them without loading every reporter.

// The --reporter names, the default first.
export const REPORTER_NAMES = ['pretty', 'json', 'junit', 'tap', 'github', 'gradescope', 'html'] as const;

// A --reporter name.
export type ReporterName = (typeof REPORTER_NAMES)[number];
