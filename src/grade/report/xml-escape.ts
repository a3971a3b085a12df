// The two escapes the JUnit report needs, by hand rather than through an XML builder (xmlbuilder2, fast-xml-parser's
// builder): a builder escapes attributes but writes literal tabs and newlines there (which parsers then normalise to
// spaces) and leaves a `]]>` inside CDATA to the caller, the two cases this file exists for; the report's layout is a
// fixed template, checked against the Jenkins schema with xmllint in the tests.
import { plainText } from './plain-text.ts';

// An attribute value, quoted with `"`. Tabs and newlines become character references: a parser normalises
// literal ones to spaces inside attributes, and the reference keeps them.
export function xmlAttribute(value: string): string {
  const escaped = plainText(value).replace(/[&<>"\t\n]/g, (c) => ATTRIBUTE_ENTITIES[c] ?? c);
  return `"${escaped}"`;
}

const ATTRIBUTE_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
};

// Character data as one or more CDATA sections. A `]]>` inside would end the section early, so it is split
// between two sections (`]]` ends the first, `>` starts the second): the parsed text is unchanged.
export function xmlCdata(text: string): string {
  return `<![CDATA[${plainText(text).split(']]>').join(']]]]><![CDATA[>')}]]>`;
}
