import { describe, expect, it } from 'vitest';
import {
  escapeData,
  escapeProperty,
  quarantine,
  UNTRUSTED_PREFIX,
  workflowCommand,
} from '../../../src/grade/report/workflow-command.ts';
import { readLog } from './workflow-log.ts';

describe('escapeData / escapeProperty', () => {
  it.each([
    ['percent', '100%', '100%25', '100%25'],
    ['newlines', 'a\r\nb', 'a%0D%0Ab', 'a%0D%0Ab'],
    ['colon and comma', 'a:b,c', 'a:b,c', 'a%3Ab%2Cc'],
    ['an escape lookalike', '%0A', '%250A', '%250A'],
  ])('escape %s', (_, text, data, property) => {
    expect(escapeData(text)).toBe(data);
    expect(escapeProperty(text)).toBe(property);
  });
});

describe('workflowCommand', () => {
  it.each([
    ['plain', 'error', { title: 'read-alias' }, 'Read returned the wrong content'],
    ['hostile', 'error', { title: 'a::b, c=d %0A\ne' }, 'x::add-mask::y\r\n%25 ,: z'],
    ['no properties', 'group', {}, 'FAIL read-alias'],
    ['empty data', 'endgroup', {}, ''],
  ])('a %s command reads back as itself', (_, name, properties, data) => {
    const line = workflowCommand(name, properties, data);
    const log = readLog(`${line}\n`);
    expect(log.lines).toHaveLength(1);
    expect(log.commands).toEqual([{ name, properties, data, line: 0 }]);
  });
});

describe('quarantine', () => {
  const text = '::add-mask::x\n##[set-output name=a]b\nok\n::endgroup::';
  const lines = quarantine(text);
  const token = lines[0]!.slice('::stop-commands::'.length);

  it('prefixes every line and wraps them in stop-commands / resume', () => {
    expect(lines.slice(1, -1)).toEqual(text.split('\n').map((l) => UNTRUSTED_PREFIX + l));
    expect(lines.at(-1)).toBe(`::${token}::`);
  });

  it('leaves the runner nothing to act on but the stop and the resume', () => {
    const log = readLog(`${lines.join('\n')}\n`);
    expect(log.commands.map((c) => c.name)).toEqual(['stop-commands', token]);
    expect(log.plain.every((l) => l.stopped)).toBe(true);
  });

  it('uses a token that does not occur in the text and is the same for the same text', () => {
    expect(token).toMatch(/^theinference-[0-9a-f]{64}$/);
    expect(lines.slice(1, -1).join('\n')).not.toContain(token);
    expect(quarantine(text)).toEqual(lines);
    expect(quarantine(`${text}!`)[0]).not.toBe(lines[0]);
  });

  it('splits at every line break the runner splits at', () => {
    expect(quarantine('a\rb\r\nc')).toHaveLength(5);
  });
});
