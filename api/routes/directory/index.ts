import { Router } from 'express';
import type { AppDeps } from '../../deps';
import { artistsRouter } from './artists';
import { designsRouter } from './designs';
import { meRouter } from './me';
import { portfoliosRouter } from './portfolios';
import { searchRouter } from './search';
import { studiosRouter } from './studios';

/** Public and beta directory reads under /api/v1 (studios, search, artists, portfolios, designs, /me). */
export function directoryRouter(deps: AppDeps): Router {
  const r = Router();
  r.use(studiosRouter(deps));
  r.use(searchRouter(deps));
  r.use(artistsRouter(deps));
  r.use(portfoliosRouter(deps));
  r.use(designsRouter(deps));
  r.use(meRouter(deps));
  return r;
}
