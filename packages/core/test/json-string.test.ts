/** `jsonString`: exactly `JSON.stringify`'s text for any string, quoted by hand or not. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString } from '../src/ports/json.js';

describe('jsonString', () => {
  const rows: Array<[name: string, text: string]> = [
    ['empty', ''],
    ['a UUID', '0f4c6a8e-1b2c-4d5e-8f90-1234567890ab'],
    ['every printable ASCII but the two', " !#$%&'()*+,-./0-9:;<=>?@A-Z[]^_`a-z{|}~"],
    ['a quote', 'a"b'],
    ['a backslash', 'a\\b'],
    ['a control character', 'a\u0001b'],
    ['a newline', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['a letter beyond ASCII', 'Ωé'],
    ['a lone surrogate', 'a\ud800b'],
    ['a surrogate pair', 'a😀b'],
    ['a line separator', 'a\u2028b'],
  ];
  it.each(rows)('%s', (_name, text) => {
    expect(jsonString(text)).toBe(JSON.stringify(text));
  });

  it('is JSON.stringify for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(jsonString(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 2_000 },
    );
  });
});
