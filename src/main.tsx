/**
 * Entry point, kept small so it runs as soon as the page has it (docs/architecture.md, Cold start):
 * installs the fetch interceptor, which starts the data worker (DuckDB-WASM and the dataset's
 * tables) and fetches the dataset's first view on a route that reads the dataset, then loads the
 * app (src/app.tsx), whose download and start overlap the worker's boot instead of preceding it.
 */
import { installFetchInterceptor } from './api/interceptor';

installFetchInterceptor();

import('./app').catch((error: unknown) => {
  const loader = document.querySelector('#page-loader span');
  if (loader) loader.textContent = `Compete could not load: ${error instanceof Error ? error.message : String(error)}. Reload the page.`;
});
