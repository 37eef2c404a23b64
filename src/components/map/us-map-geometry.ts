/**
 * The state shapes of the map 'Variance by Region', docs/screens.md (Shared components): the 51
 * valid state areas and Puerto Rico in a 700 x 420 frame, read from `state-shapes.json`, which
 * us-map-compute.ts computes from the bundled `us-atlas` topology (no CDN) ahead of time, so that
 * no page projects the map's points at run time. The file (~160 KB) is a chunk of its own, loaded
 * on the first map (src/components/lazy-module.ts), so that it does not delay a screen's first figures.
 */
import { lazyModule, type LazyModule } from '../lazy-module';
import type { StateShapeData } from './us-map-compute';
import { STATE_AREAS, type StateArea } from '../../../contract/rules/state-areas';

export { MAP_HEIGHT, MAP_WIDTH } from './map-frame';

export interface StateShape {
  area: StateArea;
  /** SVG path data in the 700 x 420 frame. */
  d: string;
}

/** The shapes of `data` whose id is a known area (51 available areas and Puerto Rico). Pure. */
export function toStateShapes(data: readonly StateShapeData[]): StateShape[] {
  return data.flatMap(({ id, d }) => {
    const area = STATE_AREAS.get(id);
    return area ? [{ area, d }] : [];
  });
}

/** The shapes, loaded once. */
export const STATE_SHAPES: LazyModule<StateShape[]> = lazyModule(async () =>
  toStateShapes((await import('./state-shapes.json')).default as StateShapeData[]));
