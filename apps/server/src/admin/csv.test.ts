import { describe, expect, it } from 'vitest';
import { parseCsv } from '../test/admin.js';
import { csvLine } from './csv.js';

describe('csvLine', () => {
  it('quotes only the fields that need it, doubling their quotes, and ends with CRLF', () => {
    expect(csvLine(['a', 1, true, null])).toBe('a,1,true,\r\n');
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'cr\r'])).toBe('"a,b","say ""hi""","two\nlines","cr\r"\r\n');
  });

  it('reads back as the fields it was given', () => {
    const fields = ['plain', 'comma, inside', '"quoted"', 'line\r\nbreak', ''];
    expect(parseCsv(csvLine(fields) + csvLine(['x']))).toEqual([fields, ['x']]);
  });
});
