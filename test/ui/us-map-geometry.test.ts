// The state map's shapes, docs/screens.md (Shared components): the bundled us-atlas
// topology, Albers USA with a Puerto Rico inset, 700 x 420, computed ahead of time into
// src/components/map/state-shapes.json.
import { describe, expect, it } from 'vitest';
import { geoAlbersUsa } from 'd3-geo';
import { geoAlbersUsaPr } from '../../src/components/map/albers-usa-pr';
import { computeStateShapes } from '../../src/components/map/us-map-compute';
import shapeFile from '../../src/components/map/state-shapes.json';
import { MAP_HEIGHT, MAP_WIDTH, STATE_SHAPES } from '../../src/components/map/us-map-geometry';
import { STATE_AREAS, VALID_STATE_AREA_COUNT } from '../../contract/rules/state-areas';

/** Every x,y pair of an SVG path's numbers. */
function points(d: string): Array<[number, number]> {
  const n = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < n.length; i += 2) out.push([n[i]!, n[i + 1]!]);
  return out;
}

describe('US state map geometry', () => {
  it('is the committed state-shapes.json, computed from us-atlas (else run: npx tsx scripts/state-shapes.ts)', () => {
    expect(shapeFile).toEqual(computeStateShapes());
  });

  it('draws the 51 valid state areas and Puerto Rico, unavailable, once the shapes are loaded', async () => {
    expect(STATE_SHAPES.state().status).toBe('loading');
    const shapes = await STATE_SHAPES.load();
    expect(STATE_SHAPES.state()).toEqual({ status: 'ready', module: shapes });
    expect(await STATE_SHAPES.load()).toBe(shapes); // loaded once
    expect(VALID_STATE_AREA_COUNT).toBe(51);
    expect(shapes.filter((s) => s.area.available)).toHaveLength(51);
    expect(shapes.map((s) => s.area.code)).toContain('PR');
    expect(STATE_AREAS.get('72')?.available).toBe(false);
  });

  it('fits inside 700 x 420', async () => {
    for (const { d } of await STATE_SHAPES.load()) {
      for (const [x, y] of points(d)) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(MAP_WIDTH);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(MAP_HEIGHT);
      }
    }
  });

  it('places Puerto Rico in its inset, and agrees with d3 albersUsa for the other parts', async () => {
    // k = 1070 x min(700 / 960, 420 / 500) = 780.21; inset x 350 + [0.32, 0.38] k = [599.7, 646.5],
    // y 210 + [0.204, 0.24] k = [369.2, 397.3]
    const pr = (await STATE_SHAPES.load()).find((s) => s.area.code === 'PR')!;
    for (const [x, y] of points(pr.d)) {
      expect(x).toBeGreaterThan(599.6);
      expect(x).toBeLessThan(646.6);
      expect(y).toBeGreaterThan(369.1);
      expect(y).toBeLessThan(397.3);
    }
    const ours = geoAlbersUsaPr();
    const d3 = geoAlbersUsa();
    for (const lonLat of [[-122.42, 37.77], [-149.9, 61.2], [-157.86, 21.31], [-74.0, 40.71]] as Array<[number, number]>) {
      expect(ours(lonLat)).toEqual(d3(lonLat)); // San Francisco, Anchorage, Honolulu, New York
    }
    expect(d3([-66.1, 18.47])).toBeNull(); // San Juan: d3's plain Albers USA drops it
    expect(ours([-66.1, 18.47])).not.toBeNull();
  });
});
