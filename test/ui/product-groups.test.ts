/**
 * Products listed under their company (src/components/comparison/product-groups.ts,
 * contract/rules/product.ts; docs/converter.md, Products): the comparison's checkboxes gather the
 * products of one group at the place of its first, and leave every insurer that is its own group
 * (the sample's, a dataset before converter 0.18) a flat list in its order.
 */
import { describe, expect, it } from 'vitest';
import { productGroups } from '../../src/components/comparison/product-groups';
import { productLabel } from '../../contract/rules/product';

describe('product groups', () => {
  it('gathers the products of a company under it, at the place of its first product', () => {
    const list = [
      { id: 'uhc-ppo', group: 'UnitedHealthcare' },
      { id: 'aetna', group: 'Aetna' },
      { id: 'uhc-hmo', group: 'UnitedHealthcare' },
      { id: 'cigna' },
    ];
    expect(productGroups(list).map((g) => [g.group, g.insurers.map((i) => i.id)])).toEqual([
      ['UnitedHealthcare', ['uhc-ppo', 'uhc-hmo']],
      [null, ['aetna']],
      [null, ['cigna']],
    ]);
  });

  it('leaves insurers that are their own group a flat list, in order', () => {
    const list = [{ id: 'b', group: 'B' }, { id: 'a', group: 'A' }, { id: 'c', group: '' }];
    expect(productGroups(list)).toEqual([{ group: null, insurers: [list[0]] }, { group: null, insurers: [list[1]] }, { group: null, insurers: [list[2]] }]);
  });

  it('names a product under its group, and by its name alone when it is its own group', () => {
    expect(productLabel('UnitedHealthcare', 'Choice Plus PPO')).toBe('UnitedHealthcare · Choice Plus PPO');
    expect(productLabel('Aetna', 'Aetna')).toBe('Aetna');
    expect(productLabel(undefined, 'Aetna')).toBe('Aetna');
    expect(productLabel('', 'Aetna')).toBe('Aetna');
  });
});
