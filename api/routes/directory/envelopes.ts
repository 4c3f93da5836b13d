// The pagination blocks of the directory reads. Their key names differ per endpoint on purpose
// (contract 4.3): studios keeps the legacy camelCase block, search uses snake_case, artists `pages`.
import { totalPagesOf, type Page } from '../../../lib/directory/params';

/**
 * Bounded totals: `total` is exact up to the cap (SEARCH_TOTAL_CAP), beyond it the cap
 * and the relation `gte`; the page counts follow from that total, and has-next is known exactly
 * (the reads fetch one row more than the page).
 */
export interface BoundedTotal {
  total: number;
  relation: 'eq' | 'gte';
  hasNext: boolean;
}

/** An exact total (a plain number) or a bounded one. */
function bounded(p: Page, t: number | BoundedTotal): BoundedTotal {
  return typeof t === 'number' ? { total: t, relation: 'eq', hasNext: p.page < totalPagesOf(t, p.limit) } : t;
}

/** GET /studios: {page, limit, total, totalPages, hasNext, hasPrev} (legacy wrapper; the relation goes beside it as totalRelation). */
export function legacyPagination(p: Page, total: number | BoundedTotal) {
  const t = bounded(p, total);
  return { page: p.page, limit: p.limit, total: t.total, totalPages: totalPagesOf(t.total, p.limit), hasNext: t.hasNext, hasPrev: p.page > 1 };
}

/** GET /search: {page, limit, total_pages, has_next, has_prev} (the relation is data.total_relation). */
export function searchPagination(p: Page, total: number | BoundedTotal) {
  const t = bounded(p, total);
  return { page: p.page, limit: p.limit, total_pages: totalPagesOf(t.total, p.limit), has_next: t.hasNext, has_prev: p.page > 1 };
}

/** GET /artists: {page, limit, total, pages}. */
export function artistsPagination(p: Page, total: number) {
  return { page: p.page, limit: p.limit, total, pages: totalPagesOf(total, p.limit) };
}

/** GET /portfolios, /designs and the /me lists: {page, limit, total, totalPages}. */
export function mediaPagination(p: Page, total: number) {
  return { page: p.page, limit: p.limit, total, totalPages: totalPagesOf(total, p.limit) };
}
