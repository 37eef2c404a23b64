/**
 * The validation settings the open dataset was converted with (manifest `validation`, through
 * `GET /api/coverage`), for the marks that name a bound ('Below 0.3x Medicare'); the defaults of
 * docs/methodology.md while they load or when the answer fails.
 */
import { DEFAULT_VALIDATION, type ValidationSettings } from '../../../contract/files/dataset';
import { useApi } from './use-api';

export function useValidationSettings(): ValidationSettings {
  const coverage = useApi('GET /api/coverage', {});
  return coverage.data?.validation ?? coverage.previous?.validation ?? DEFAULT_VALIDATION;
}
