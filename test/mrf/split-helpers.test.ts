// Unit tests of the byte-level helpers: id-token quoting, billing-code peeking, lenient tokens.
import { describe, expect, it } from 'vitest';
import { quoteNonFiniteTokens } from '../../scripts/mrf/parse-element.js';
import { peekBillingCode } from '../../scripts/mrf/peek-billing-code.js';
import { quoteIdTokens } from '../../scripts/mrf/quote-id-tokens.js';

describe('quoteIdTokens', () => {
  it('quotes provider_group_id tokens a double would change, leaves plain integers', () => {
    expect(quoteIdTokens('{"provider_group_id": 690.64470,"x":1}', 'provider_references')).toBe('{"provider_group_id": "690.64470","x":1}');
    expect(quoteIdTokens('{"provider_group_id":12}', 'provider_references')).toBe('{"provider_group_id":12}');
    expect(quoteIdTokens('{"provider_group_id":012}', 'provider_references')).toBe('{"provider_group_id":"012"}');
    expect(quoteIdTokens('{"provider_group_id":1234567890123456}', 'provider_references')).toBe('{"provider_group_id":"1234567890123456"}');
    expect(quoteIdTokens('{"provider_group_id":"7"}', 'provider_references')).toBe('{"provider_group_id":"7"}');
  });

  it('quotes every non-integer token of negotiated_rates provider_references arrays', () => {
    const src = '{"negotiated_rates":[{"provider_references": [ 1.10 ,2, 3e2],"x":[4.0]},{"provider_references":[]}]}';
    expect(quoteIdTokens(src, 'in_network')).toBe('{"negotiated_rates":[{"provider_references": [ "1.10" ,2, "3e2"],"x":[4.0]},{"provider_references":[]}]}');
  });

  it('ignores the key text inside strings and as a value', () => {
    const src = '{"name":"\\"provider_references\\": [1.0]","d":"provider_references","v":"\\\\","provider_references":[2.50]}';
    expect(JSON.parse(quoteIdTokens(src, 'in_network'))).toEqual({ name: '"provider_references": [1.0]', d: 'provider_references', v: '\\', provider_references: ['2.50'] });
  });
});

describe('peekBillingCode', () => {
  it('reads the element code at depth 1, trimmed', () => {
    expect(peekBillingCode(Buffer.from('{"name":"billing_code","billing_code" : " 0001A ","negotiated_rates":[]}'))).toBe('0001A');
  });

  it('skips codes of bundled_codes and strings that look like the key', () => {
    const b = Buffer.from('{"d":"\\"billing_code\\":\\"x\\"","bundled_codes":[{"billing_code":"1"}],"billing_code":"2"}');
    expect(peekBillingCode(b)).toBe('2');
  });

  it('gives undefined when the code is not a plain string', () => {
    expect(peekBillingCode(Buffer.from('{"billing_code":99213}'))).toBeUndefined();
    expect(peekBillingCode(Buffer.from('{"billing_code":"A\\u0030"}'))).toBeUndefined();
    expect(peekBillingCode(Buffer.from('{"name":"x"}'))).toBeUndefined();
  });
});

describe('quoteNonFiniteTokens', () => {
  it('quotes bare NaN / Infinity / -Infinity outside strings only', () => {
    expect(quoteNonFiniteTokens('[NaN,-Infinity,Infinity,"NaN",-1]')).toBe('["NaN","-Infinity","Infinity","NaN",-1]');
  });
});
