/** NPI check digits (CMS: Luhn over `80840` + the first nine digits). */
import { describe, expect, it } from 'vitest';
import { isValidNpi, luhnCheckDigit, npiWithCheckDigit } from '../../scripts/sample/npi';

describe('NPI check digit', () => {
  it('matches the CMS worked example 123456789 -> 1234567893', () => {
    // CMS example: digits 1 2 3 4 5 6 7 8 9; doubling alternates from the right: 9->18 (1+8=9), 7->14 (5),
    // 5->10 (1), 3->6, 1->2; sum of doubled = 9+5+1+6+2 = 23; undoubled 8+6+4+2 = 20; plus 24 for
    // the prefix 80840 -> 67; next multiple of 10 is 70 -> check digit 3.
    expect(npiWithCheckDigit('123456789')).toBe('1234567893');
    expect(luhnCheckDigit('80840123456789')).toBe(3);
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('0234567893')).toBe(false);
  });
});
