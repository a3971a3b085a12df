// Gemini CLI's list_directory result read back as entries.
import { describe, expect, it } from 'vitest';
import { readGeminiListing } from '../../../src/record/map/gemini-listing.ts';

describe('readGeminiListing', () => {
  it('reads one level, directories marked, without the count of what its ignore files left out', () => {
    expect(readGeminiListing('Directory listing for <sandbox>/src:\n[DIR] lib\na.ts\nb.ts\n\n(2 git-ignored)')).toEqual(
      ['lib/', 'a.ts', 'b.ts'],
    );
  });

  it('reads an empty directory as no entries, and other text as no listing', () => {
    expect(readGeminiListing('Directory <sandbox>/src is empty.')).toEqual([]);
    expect(readGeminiListing('a.ts\nb.ts')).toBeUndefined();
  });
});
