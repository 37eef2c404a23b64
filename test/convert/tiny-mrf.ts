/** A tiny in-network file for the converter tests of tables of contents and zip archives. */

/** A one-item in-network file: code `code`, one price `rate` for one inline group of NPI `npi`. */
export function tinyInNetwork(code: string, rate: number, npi = 1111111112): string {
  return JSON.stringify({
    reporting_entity_name: 'TOC Plan', reporting_entity_type: 'health insurance issuer', last_updated_on: '2025-04-01', version: '1.0.0',
    in_network: [{
      negotiation_arrangement: 'ffs', name: `Service ${code}`, billing_code_type: 'CPT', billing_code_type_version: '2025', billing_code: code, description: 'd',
      negotiated_rates: [{
        provider_groups: [{ npi: [npi], tin: { type: 'ein', value: '11-1111111' } }],
        negotiated_prices: [{ negotiated_type: 'negotiated', negotiated_rate: rate, expiration_date: '9999-12-31', billing_class: 'professional', service_code: ['11'] }],
      }],
    }],
  });
}
