/**
 * Builders of small in-network JSON texts for the converter's tests: one professional negotiated
 * price (place of service 11, no expiration) and a CPT item holding the given rates.
 */

/** A `negotiated_prices[]` element of `rate` USD. */
export const price = (rate: number): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}`;

/** An `in_network[]` CPT item of `code` whose `negotiated_rates` are `rates` (JSON elements, joined). */
export const item = (code: string, rates: string): string =>
  `{"billing_code":"${code}","negotiation_arrangement":"ffs","name":"S ${code}","billing_code_type":"CPT","billing_code_type_version":"2025","description":"d","negotiated_rates":[${rates}]}`;
