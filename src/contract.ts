// The stage's contract, as a course's code imports it from the package (`import type { Execute, ToolOutput, Tools }
// from 'theinference'`). A file of its own, not the reference dispatcher's: the package a student installs ships
// the contract and never the answer (package.json `files` leaves src/execute.ts and its build out).
import type { ToolOutput } from './tools/types.ts';

// The loop's one verb: a tool name the model chose and the input it sent. The result may be returned as it is or
// as a promise (the course page's own skeleton returns plain values from a switch); the driver awaits either.
export type Execute = (name: string, input: any) => ToolOutput | Promise<ToolOutput>;
