/**
 * Albers USA with a Puerto Rico inset: d3's `geoAlbersUsa` composite (lower 48, Alaska, Hawaii)
 * drops Puerto Rico, so this repeats its pattern (d3-geo src/projection/albersUsa.js: one conic
 * equal-area projection per part, a clip extent per inset, a multiplexed stream) and adds a
 * fourth part for Puerto Rico, placed at the bottom right as d3-composite-projections'
 * `geoAlbersUsaTerritories` places it. Only the forward direction is implemented (rendering).
 */
import { geoAlbers, geoConicEqualArea, type GeoProjection, type GeoStream, type GeoStreamWrapper } from 'd3-geo';

const EPSILON = 1e-6;

/** The projection object a `geoPath` needs: forward point and stream. */
export interface CompositeProjection extends GeoStreamWrapper {
  (point: [number, number]): [number, number] | null;
  scale(k: number): CompositeProjection;
  translate(t: [number, number]): CompositeProjection;
}

function multiplex(streams: GeoStream[]): GeoStream {
  return {
    point: (x, y) => streams.forEach((s) => s.point(x, y)),
    sphere: () => streams.forEach((s) => s.sphere?.()),
    lineStart: () => streams.forEach((s) => s.lineStart()),
    lineEnd: () => streams.forEach((s) => s.lineEnd()),
    polygonStart: () => streams.forEach((s) => s.polygonStart()),
    polygonEnd: () => streams.forEach((s) => s.polygonEnd()),
  };
}

/** Creates the projection; call `.scale(k).translate([x, y])` (d3 defaults 1070, [480, 250]). */
export function geoAlbersUsaPr(): CompositeProjection {
  const lower48 = geoAlbers();
  const alaska = geoConicEqualArea().rotate([154, 0]).center([-2, 58.5]).parallels([55, 65]);
  const hawaii = geoConicEqualArea().rotate([157, 0]).center([-3, 19.9]).parallels([8, 18]);
  const puertoRico = geoConicEqualArea().rotate([66, 0]).center([0, 18]).parallels([8, 18]);
  const parts: GeoProjection[] = [lower48, alaska, hawaii, puertoRico];
  let found: [number, number] | null = null;
  const pointStream = { point: (x: number, y: number) => { found = [x, y]; } } as GeoStream;
  let pointStreams: GeoStream[] = [];
  let cache: GeoStream | null = null;
  let cacheStream: GeoStream | null = null;

  const projection = ((coordinates: [number, number]) => {
    const [x, y] = coordinates;
    found = null;
    for (const s of pointStreams) {
      s.point(x, y);
      if (found) return found;
    }
    return null;
  }) as CompositeProjection;

  projection.stream = (stream: GeoStream) =>
    cache && cacheStream === stream ? cache : (cache = multiplex(parts.map((p) => p.stream((cacheStream = stream)))));

  projection.scale = (k: number) => {
    lower48.scale(k);
    alaska.scale(k * 0.35);
    hawaii.scale(k);
    puertoRico.scale(k);
    cache = null;
    return projection;
  };

  projection.translate = ([x, y]: [number, number]) => {
    const k = lower48.scale();
    lower48.translate([x, y]).clipExtent([[x - 0.455 * k, y - 0.238 * k], [x + 0.455 * k, y + 0.238 * k]]);
    alaska.translate([x - 0.307 * k, y + 0.201 * k])
      .clipExtent([[x - 0.425 * k + EPSILON, y + 0.12 * k + EPSILON], [x - 0.214 * k - EPSILON, y + 0.234 * k - EPSILON]]);
    hawaii.translate([x - 0.205 * k, y + 0.212 * k])
      .clipExtent([[x - 0.214 * k + EPSILON, y + 0.166 * k + EPSILON], [x - 0.115 * k - EPSILON, y + 0.234 * k - EPSILON]]);
    puertoRico.translate([x + 0.35 * k, y + 0.224 * k])
      .clipExtent([[x + 0.32 * k + EPSILON, y + 0.204 * k + EPSILON], [x + 0.38 * k - EPSILON, y + 0.24 * k - EPSILON]]);
    pointStreams = parts.map((p) => p.stream(pointStream));
    cache = null;
    return projection;
  };

  return projection.scale(1070).translate([480, 250]);
}
