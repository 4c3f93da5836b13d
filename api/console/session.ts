// The review console's cookie surface: a mapped human operator with portfolio_intake:review (a
// route's rule may ask for more, e.g. portfolios:publish). Its cookie is sent to the whole API, so the
// intake operator routes take it as a credential (the `operator` auth kind), with X-Console-CSRF on writes.
import { findActiveActor } from '../../lib/identity/actors';
import type { ProvenIdentity } from '../../lib/identity/types';
import { isOperatorWith, type Actor } from '../auth/middleware';
import { sessionSurface } from '../auth/session-surface';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

/** The operator behind a proven credential, if it is still an active human operator who may review. */
export async function operatorOf(deps: AppDeps, identity: ProvenIdentity): Promise<Actor> {
  const actor = await findActiveActor(deps.sql, identity);
  if (!actor) throw new AppError('actor_not_mapped', 'The credential has no active actor mapping (any more).');
  if (!isOperatorWith(actor, 'portfolio_intake:review')) throw new AppError('operator_required', 'The console is for mapped human operators with portfolio_intake:review.');
  return actor;
}

export const consoleSurface = sessionSurface({
  id: 'console',
  title: 'console',
  home: '/console',
  cookiePath: '/',
  cookie: 'console_session',
  csrfHeader: 'X-Console-CSRF',
  admit: operatorOf,
});
