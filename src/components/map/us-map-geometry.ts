/**
 * The state shapes of the map 'Variance by Region', docs/screens.md (Shared components): the `us-atlas` states
 * topology bundled by Vite (no CDN), projected with Albers USA plus a Puerto Rico inset into a
 * 700 x 420 frame. Keeps the 51 valid state areas and Puerto Rico; other territories are dropped.
 */
import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesTopology from 'us-atlas/states-10m.json';
import { STATE_AREAS, type StateArea } from './us-states';
import { geoAlbersUsaPr } from './albers-usa-pr';

/** Map frame, CSS pixels. */
export const MAP_WIDTH = 700;
export const MAP_HEIGHT = 420;

export interface StateShape {
  area: StateArea;
  /** SVG path data in the 700 x 420 frame. */
  d: string;
}

let shapes: StateShape[] | null = null;

/** The shapes, computed once: 51 available areas and Puerto Rico. */
export function stateShapes(): StateShape[] {
  if (shapes) return shapes;
  const topology = statesTopology as unknown as Topology<{ states: GeometryCollection }>;
  const collection = feature(topology, topology.objects.states);
  // d3's albersUsa frame is 960 x 500 at scale 1070; shrink it to fit 700 x 420.
  const k = Math.min(MAP_WIDTH / 960, MAP_HEIGHT / 500);
  const path = geoPath(geoAlbersUsaPr().scale(1070 * k).translate([MAP_WIDTH / 2, MAP_HEIGHT / 2]));
  shapes = collection.features.flatMap((f) => {
    const area = STATE_AREAS.get(String(f.id));
    const d = area ? path(f) : null;
    return area && d ? [{ area, d }] : [];
  });
  return shapes;
}
