/**
 * The route table, docs/screens.md (Routes). Sign-in pages sit outside the protected shell; every
 * screen is a child of the shell at /. Each screen is its own chunk (React `lazy`), loaded when its
 * route is first shown, so a page compiles only the screen it shows (docs/architecture.md, Cold
 * start); the shell renders at once and the screen's place stays empty for the moment its chunk
 * takes to arrive.
 */
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { Shell } from './components/Shell';
import { AuthCallback } from './routes/AuthCallback';
import { Login } from './routes/Login';
import { Logout } from './routes/Logout';
import { NotFound } from './routes/NotFound';

/** A screen loaded on first use: `pick` takes its component out of the module `load` imports. */
function screen<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): ReactElement {
  const Screen = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={null}>
      <Screen />
    </Suspense>
  );
}

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
        { index: true, element: screen(() => import('./sample/screens/Dashboard'), (m) => m.Dashboard) },
        { path: 'comparison', element: screen(() => import('./sample/screens/Comparison'), (m) => m.Comparison) },
        { path: 'alerts', element: screen(() => import('./routes/Alerts'), (m) => m.Alerts) },
        { path: 'regional', element: screen(() => import('./routes/Regional'), (m) => m.Regional) },
        { path: 'settings', element: screen(() => import('./routes/Settings'), (m) => m.Settings) },
        { path: 'old-dashboard', element: screen(() => import('./sample/screens/OldDashboard'), (m) => m.OldDashboard) },
        { path: 'overview', element: screen(() => import('./sample/screens/Overview'), (m) => m.Overview) },
        { path: 'live-dashboard', element: screen(() => import('./live/screens/LiveDashboard'), (m) => m.LiveDashboard) },
        { path: 'live-comparison', element: screen(() => import('./live/screens/LiveComparison'), (m) => m.LiveComparison) },
        { path: 'live-search', element: screen(() => import('./live/screens/LiveSearch'), (m) => m.LiveSearch) },
        { path: 'dataset', element: screen(() => import('./live/screens/DatasetScreen'), (m) => m.DatasetScreen) },
        { path: 'data-coverage', element: screen(() => import('./live/screens/DataCoverage'), (m) => m.DataCoverage) },
        { path: 'methodology', element: screen(() => import('./routes/Methodology'), (m) => m.Methodology) },
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
}
