/**
 * Computes the state shapes of the map 'Variance by Region' (docs/screens.md, Shared components)
 * from the `us-atlas` states topology, projected with Albers USA plus a Puerto Rico inset into the
 * 700 x 420 frame, coordinates rounded to 0.1 px: the 51 valid state areas and Puerto Rico; other
 * territories are dropped. Projecting every point through the composite's five parts costs about
 * half a second of a page's main thread, so the shapes are computed here once, written to
 * `state-shapes.json` by `npx tsx scripts/state-shapes.ts`, and the page reads that file
 * (us-map-geometry.ts); test/ui/us-map-geometry.test.ts checks the file equals this function's output.
 */
import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesTopology from 'us-atlas/states-10m.json';
import { geoAlbersUsaPr } from './albers-usa-pr';
import { MAP_HEIGHT, MAP_WIDTH } from './map-frame';
import { STATE_AREAS } from '../../../contract/rules/state-areas';

/** One shape: the area's FIPS id (contract/rules/state-areas.ts STATE_AREAS key) and its SVG path data. */
export interface StateShapeData {
  id: string;
  d: string;
}

/** The shapes, in the topology's order. Pure (about 0.5 s). */
export function computeStateShapes(): StateShapeData[] {
  const topology = statesTopology as unknown as Topology<{ states: GeometryCollection }>;
  const collection = feature(topology, topology.objects.states);
  // d3's albersUsa frame is 960 x 500 at scale 1070; shrink it to fit 700 x 420.
  const k = Math.min(MAP_WIDTH / 960, MAP_HEIGHT / 500);
  const path = geoPath(geoAlbersUsaPr().scale(1070 * k).translate([MAP_WIDTH / 2, MAP_HEIGHT / 2])).digits(1);
  return collection.features.flatMap((f) => {
    const id = String(f.id);
    const d = STATE_AREAS.has(id) ? path(f) : null;
    return d ? [{ id, d }] : [];
  });
}
