/**
 * NPI (National Provider Identifier) check digits.
 *
 * Rule (CMS, "NPI check digit", ISO/IEC 7812 Luhn): the tenth digit is the Luhn check digit of the
 * nine-digit base prefixed with the health-industry card issuer prefix `80840`.
 */

/** Luhn check digit (0-9) of a string of decimal digits. Throws on a non-digit. */
export function luhnCheckDigit(payload: string): number {
  if (!/^\d+$/.test(payload)) throw new Error(`luhnCheckDigit: not digits: ${payload}`);
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    // Double every second digit counting from the rightmost digit of the payload.
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** The full ten-digit NPI for a nine-digit base (first digit 1 or 2). Throws on a bad base. */
export function npiWithCheckDigit(base9: string): string {
  if (!/^[12]\d{8}$/.test(base9)) throw new Error(`npiWithCheckDigit: bad base ${base9}`);
  return base9 + String(luhnCheckDigit(`80840${base9}`));
}

/** True when `npi` is ten digits starting with 1 or 2 and its check digit is right. */
export function isValidNpi(npi: string): boolean {
  return /^[12]\d{9}$/.test(npi) && npiWithCheckDigit(npi.slice(0, 9)) === npi;
}
