import type { Route } from '../../http/route';
import { artistsRoutes } from './artists';
import { designsRoutes } from './designs';
import { mediaFileRoutes } from './media-files';
import { meRoutes } from './me';
import { portfoliosRoutes } from './portfolios';
import { searchRoutes } from './search';
import { studiosRoutes } from './studios';

/** Public and beta directory reads under /api/v1 (studios, search, artists, portfolios, designs, /me) and the public renditions under /media. */
export function directoryRoutes(): Route[] {
  return [...studiosRoutes(), ...searchRoutes(), ...artistsRoutes(), ...portfoliosRoutes(), ...designsRoutes(), ...meRoutes(), ...mediaFileRoutes()];
}
