// What a course's code imports from the package by name (`import type { Execute, Tools } from 'theinference'`):
// the types of the stage's contract, so a student's src/execute.ts declares none of its own.
export type { Execute } from './contract.ts';
export type { ToolOutput, Tools } from './tools/index.ts';
export type { CompactRequest, LoopRequest } from './loop-request.ts';
