/**
 * The /api contract's types, one module: the route map and the wire (routes.ts), the service
 * pricing and dashboard records (pricing.ts), the other screens' records (records.ts), the live
 * screens' traceability (live.ts), the state modal's pages (regional.ts) and the data worker's
 * comlink surface (worker.ts). Every importer outside this folder imports from here.
 */
export * from './live';
export * from './pricing';
export * from './records';
export * from './regional';
export * from './routes';
export * from './worker';
export type { Alert, AlertSeverity, AlertType } from '../rules/alert-rules';
