import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { xmlAttribute, xmlCdata } from '../../../src/grade/report/xml-escape.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  htmlEntities: true,
});

// `text` in an attribute and as element content, parsed back by a real XML parser.
function roundTrip(text: string): { attribute: string; content: string } {
  const xml = `<?xml version="1.0"?><e a=${xmlAttribute(text)}>${xmlCdata(text)}</e>`;
  expect(XMLValidator.validate(xml)).toBe(true);
  const e = parser.parse(xml).e;
  return { attribute: e.a, content: e['#text'] ?? '' };
}

describe('xmlAttribute / xmlCdata', () => {
  it.each([
    ['plain text', 'read-alias', 'read-alias'],
    ['markup characters', `<a href="x">&amp;</a> 'q'`, `<a href="x">&amp;</a> 'q'`],
    ['tabs and newlines', 'a\tb\nc', 'a\tb\nc'],
    ['a CDATA terminator', 'x ]]> y ]]]]> z', 'x ]]> y ]]]]> z'],
    ['a CDATA opener', '<![CDATA[ inner', '<![CDATA[ inner'],
    ['unicode', 'café 日本語 🎉', 'café 日本語 🎉'],
    ['control characters, made visible', 'bell\u0007 esc\u001b[31m', 'bell\u2407 esc'],
    ['an empty string', '', ''],
  ])('%s survive the round trip', (_, text, parsed) => {
    expect(roundTrip(text)).toEqual({ attribute: parsed, content: parsed });
  });

  it('splits a CDATA terminator across two sections', () => {
    expect(xmlCdata('a]]>b')).toBe('<![CDATA[a]]]]><![CDATA[>b]]>');
  });
});
