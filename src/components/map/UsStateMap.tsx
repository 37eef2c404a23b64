/**
 * The US state map 'Variance by Region', docs/screens.md (Shared components): 700 x 420,
 * Albers USA with a Puerto Rico inset, each state coloured by its region's overpayment (above 17,
 * 15, 13 %, else lightest). Available states are buttons (click, Enter or Space) that call
 * `onSelect`; Puerto Rico is greyed out and not clickable. While the figures load, `pending` takes
 * the states' place at the map's size, under the same legend; so does 'Loading map...' while the
 * shapes' chunk loads (us-map-geometry.ts).
 */
import type { ReactElement, ReactNode } from 'react';
import { formatPercent } from '../../../contract/rules/format';
import type { Region, StateArea } from '../../../contract/rules/state-areas';
import { useLazyModule } from '../lazy-module';
import { MAP_HEIGHT, MAP_WIDTH, STATE_SHAPES } from './us-map-geometry';
import './UsStateMap.css';

/** Fill per colour class 0 (lightest) to 3 (darkest), and for unavailable areas. */
export const MAP_FILLS = ['#fde4d8', '#f7b199', '#e9704f', '#b42318'] as const;
export const UNAVAILABLE_FILL = '#d0d5dd';
/** Fill of a state without a figure when `stateValues` is given (live data). */
export const NO_DATA_FILL = '#f2f4f7';

export interface UsStateMapProps {
  /** Overpayment percent per region; a region without a value is lightest. */
  values: Partial<Record<Region, number>>;
  /** Colour class of a percent (0-3). */
  level: (percent: number | undefined) => number;
  onSelect(area: StateArea): void;
  /**
   * Overpayment percent per state postal code (live data). When given it replaces `values`: a state
   * is coloured and described by its own figure, 'no data' when absent.
   */
  stateValues?: Partial<Record<string, number>>;
  /** Shown instead of the states, in a box of the map's size (its figures' loading text, or their error). */
  pending?: ReactNode;
}

export function UsStateMap({ values, level, onSelect, stateValues, pending }: UsStateMapProps): ReactElement {
  const loaded = useLazyModule(STATE_SHAPES);
  const shapes = loaded.status === 'ready' ? loaded.module : null;
  const waiting = pending ?? (loaded.status === 'error'
    ? <p className="us-map__status" role="alert">{`Failed to load the map: ${loaded.message}. Reload the page.`}</p>
    : shapes ? undefined : <p className="us-map__status" role="status">Loading map...</p>);
  return (
    <div className="us-map">
      {waiting !== undefined || !shapes ? (
        <div className="us-map__svg us-map__pending" style={{ aspectRatio: `${MAP_WIDTH} / ${MAP_HEIGHT}` }}>{waiting}</div>
      ) : (
        <svg viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`} width={MAP_WIDTH} height={MAP_HEIGHT} className="us-map__svg"
          role="group" aria-label="Map of US states coloured by average overpayment of their region">
          {shapes.map(({ area, d }) => {
            const value = stateValues ? stateValues[area.code] : values[area.region];
            if (!area.available) {
              return (
                <path key={area.fips} d={d} fill={UNAVAILABLE_FILL} className="us-map__state is-unavailable"
                  data-state={area.code} aria-label={`${area.name}: no data`} role="img" aria-disabled="true">
                  <title>{`${area.name}: no data`}</title>
                </path>
              );
            }
            const text = `${area.name}, ${area.region}: ${value === undefined ? 'no data' : `${formatPercent(value)} average overpayment`}`;
            return (
              <path key={area.fips} d={d} fill={stateValues && value === undefined ? NO_DATA_FILL : MAP_FILLS[level(value)]} className="us-map__state" data-state={area.code}
                role="button" tabIndex={0} aria-label={text}
                onClick={() => onSelect(area)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onSelect(area);
                  }
                }}>
                <title>{text}</title>
              </path>
            );
          })}
        </svg>
      )}
      <ul className="us-map__legend" aria-label="Legend">
        <li><span style={{ background: MAP_FILLS[3] }} aria-hidden="true" />Above 17%</li>
        <li><span style={{ background: MAP_FILLS[2] }} aria-hidden="true" />15-17%</li>
        <li><span style={{ background: MAP_FILLS[1] }} aria-hidden="true" />13-15%</li>
        <li><span style={{ background: MAP_FILLS[0] }} aria-hidden="true" />13% or less</li>
        {stateValues && <li><span style={{ background: NO_DATA_FILL }} aria-hidden="true" />No data</li>}
        <li><span style={{ background: UNAVAILABLE_FILL }} aria-hidden="true" />Not available</li>
      </ul>
    </div>
  );
}
