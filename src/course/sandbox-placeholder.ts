// What a case says for the sandbox's path (docs/cases.md): the driver writes it in results for the sandbox's path,
// and expands it in a case's inputs; the recorder writes it for the recorded session's directory.
export const SANDBOX = '<sandbox>';
