/**
 * The app: mounts the router and removes the initial page loader of index.html 100 ms after start.
 * Loaded by src/main.tsx once the data worker is on its way.
 */
// The base stylesheet comes first so the components' own CSS, imported later, overrides it.
import './styles/theme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './router';

/** Delay before the initial page loader goes away, ms. */
const PAGE_LOADER_DELAY_MS = 100;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
  </StrictMode>,
);

setTimeout(() => document.getElementById('page-loader')?.remove(), PAGE_LOADER_DELAY_MS);
