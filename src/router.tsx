/**
 * The route table, docs/screens.md (Routes). Sign-in pages sit outside the protected shell; every
 * screen is a child of the shell at /.
 */
import { createBrowserRouter } from 'react-router-dom';
import { Shell } from './components/Shell';
import { Alerts } from './routes/Alerts';
import { AuthCallback } from './routes/AuthCallback';
import { Comparison } from './sample/screens/Comparison';
import { Dashboard } from './sample/screens/Dashboard';
import { DataCoverage } from './routes/DataCoverage';
import { DatasetScreen } from './routes/DatasetScreen';
import { LiveComparison } from './routes/LiveComparison';
import { LiveDashboard } from './routes/LiveDashboard';
import { LiveSearch } from './routes/LiveSearch';
import { Login } from './routes/Login';
import { Logout } from './routes/Logout';
import { Methodology } from './routes/Methodology';
import { NotFound } from './routes/NotFound';
import { OldDashboard } from './sample/screens/OldDashboard';
import { Overview } from './sample/screens/Overview';
import { Regional } from './routes/Regional';
import { Settings } from './routes/Settings';

/** Creates the browser router; called once by main.tsx. */
export function createAppRouter() {
  return createBrowserRouter([
    { path: '/login', element: <Login /> },
    { path: '/auth/callback', element: <AuthCallback /> },
    { path: '/logout', element: <Logout /> },
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, element: <Dashboard /> },
        { path: 'comparison', element: <Comparison /> },
        { path: 'alerts', element: <Alerts /> },
        { path: 'regional', element: <Regional /> },
        { path: 'settings', element: <Settings /> },
        { path: 'old-dashboard', element: <OldDashboard /> },
        { path: 'overview', element: <Overview /> },
        { path: 'live-dashboard', element: <LiveDashboard /> },
        { path: 'live-comparison', element: <LiveComparison /> },
        { path: 'live-search', element: <LiveSearch /> },
        { path: 'dataset', element: <DatasetScreen /> },
        { path: 'data-coverage', element: <DataCoverage /> },
        { path: 'methodology', element: <Methodology /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
}
