/**
 * `npx tsx scripts/state-shapes.ts`: writes src/components/map/state-shapes.json, the state map's
 * projected shapes (src/components/map/us-map-compute.ts), after a change of the projection, the
 * frame or the `us-atlas` package. test/ui/us-map-geometry.test.ts fails while the file is stale.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { computeStateShapes } from '../src/components/map/us-map-compute';

const file = path.resolve(import.meta.dirname, '../src/components/map/state-shapes.json');
const shapes = computeStateShapes();
await writeFile(file, JSON.stringify(shapes) + '\n');
console.log(`${file}: ${shapes.length} shapes`);
