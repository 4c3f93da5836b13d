// The review console's cookie surface: a mapped human operator with portfolio_intake:review (a
// route's rule may ask for more, e.g. portfolios:publish). Its cookie is sent to the whole API, so the
// intake operator routes take it as a credential (the `operator` auth kind), with X-Console-CSRF on writes.
import { isOperatorWith } from '../auth/middleware';
import { sessionSurface } from '../auth/session-surface';
import { AppError } from '../http/errors';

export const consoleSurface = sessionSurface({
  id: 'console',
  title: 'console',
  home: '/console',
  cookiePath: '/',
  cookie: 'console_session',
  csrfHeader: 'X-Console-CSRF',
  // Still an active human operator who may review.
  unmapped: 'The credential has no active actor mapping (any more).',
  allow(actor) {
    if (!isOperatorWith(actor, 'portfolio_intake:review')) throw new AppError('operator_required', 'The console is for mapped human operators with portfolio_intake:review.');
  },
});
