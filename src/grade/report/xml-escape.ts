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
