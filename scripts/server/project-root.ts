/** The repository root, as an absolute path ending in a separator (this file is in scripts/server/). */
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
