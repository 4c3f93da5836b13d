import { Router } from 'express';
import type { AppDeps } from '../../deps';

/** Public and beta directory reads under /api/v1 (studios, search, artists, portfolios, designs, /me). */
export function directoryRouter(_deps: AppDeps): Router {
  return Router();
}
