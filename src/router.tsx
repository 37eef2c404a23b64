/**
 * The route table, docs/screens.md (Routes). Sign-in pages sit outside the protected shell; every
 * screen is a child of the shell at /. Each screen is its own chunk, loaded when its route is
 * first matched (react-router's `lazy`), so a page compiles only the screen it shows
 * (docs/architecture.md, Cold start).
 */
import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { Shell } from './components/Shell';
import { AuthCallback } from './routes/AuthCallback';
import { Login } from './routes/Login';
import { Logout } from './routes/Logout';
import { NotFound } from './routes/NotFound';

/** A lazy route's loader: the screen's module, its component picked by `pick`. */
const screen = <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType) => ({
  lazy: async () => ({ Component: pick(await load()) }),
});

/** Creates the browser router; called once by app.tsx. */
export function createAppRouter() {
  return createBrowserRouter([
    { path: '/login', element: <Login /> },
    { path: '/auth/callback', element: <AuthCallback /> },
    { path: '/logout', element: <Logout /> },
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, ...screen(() => import('./sample/screens/Dashboard'), (m) => m.Dashboard) },
        { path: 'comparison', ...screen(() => import('./sample/screens/Comparison'), (m) => m.Comparison) },
        { path: 'alerts', ...screen(() => import('./routes/Alerts'), (m) => m.Alerts) },
        { path: 'regional', ...screen(() => import('./routes/Regional'), (m) => m.Regional) },
        { path: 'settings', ...screen(() => import('./routes/Settings'), (m) => m.Settings) },
        { path: 'old-dashboard', ...screen(() => import('./sample/screens/OldDashboard'), (m) => m.OldDashboard) },
        { path: 'overview', ...screen(() => import('./sample/screens/Overview'), (m) => m.Overview) },
        { path: 'live-dashboard', ...screen(() => import('./routes/LiveDashboard'), (m) => m.LiveDashboard) },
        { path: 'live-comparison', ...screen(() => import('./routes/LiveComparison'), (m) => m.LiveComparison) },
        { path: 'live-search', ...screen(() => import('./routes/LiveSearch'), (m) => m.LiveSearch) },
        { path: 'dataset', ...screen(() => import('./routes/DatasetScreen'), (m) => m.DatasetScreen) },
        { path: 'data-coverage', ...screen(() => import('./routes/DataCoverage'), (m) => m.DataCoverage) },
        { path: 'methodology', ...screen(() => import('./routes/Methodology'), (m) => m.Methodology) },
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
}
