/**
 * The state shapes of the map 'Variance by Region', docs/screens.md (Shared components): the 51
 * valid state areas and Puerto Rico in a 700 x 420 frame, read from `state-shapes.json`, which
 * us-map-compute.ts computes from the bundled `us-atlas` topology (no CDN) ahead of time, so that
 * no page projects the map's points at run time.
 */
import shapeData from './state-shapes.json';
import type { StateShapeData } from './us-map-compute';
import { STATE_AREAS, type StateArea } from './us-states';

export { MAP_HEIGHT, MAP_WIDTH } from './map-frame';

export interface StateShape {
  area: StateArea;
  /** SVG path data in the 700 x 420 frame. */
  d: string;
}

let shapes: StateShape[] | null = null;

/** The shapes: 51 available areas and Puerto Rico. */
export function stateShapes(): StateShape[] {
  shapes ??= (shapeData as StateShapeData[]).flatMap(({ id, d }) => {
    const area = STATE_AREAS.get(id);
    return area ? [{ area, d }] : [];
  });
  return shapes;
}
