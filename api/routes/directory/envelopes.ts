// The pagination blocks of the directory reads. Their key names differ per endpoint on purpose
// (contract 4.3): studios keeps the legacy camelCase block, search uses snake_case, artists `pages`.
import { totalPagesOf, type Page } from '../../../lib/directory/params';

/** GET /studios: {page, limit, total, totalPages, hasNext, hasPrev} (legacy wrapper). */
export function legacyPagination(p: Page, total: number) {
  const totalPages = totalPagesOf(total, p.limit);
  return { page: p.page, limit: p.limit, total, totalPages, hasNext: p.page < totalPages, hasPrev: p.page > 1 };
}

/** GET /search: {page, limit, total_pages, has_next, has_prev}. */
export function searchPagination(p: Page, total: number) {
  const totalPages = totalPagesOf(total, p.limit);
  return { page: p.page, limit: p.limit, total_pages: totalPages, has_next: p.page < totalPages, has_prev: p.page > 1 };
}

/** GET /artists: {page, limit, total, pages}. */
export function artistsPagination(p: Page, total: number) {
  return { page: p.page, limit: p.limit, total, pages: totalPagesOf(total, p.limit) };
}

/** GET /portfolios, /designs and the /me lists: {page, limit, total, totalPages}. */
export function mediaPagination(p: Page, total: number) {
  return { page: p.page, limit: p.limit, total, totalPages: totalPagesOf(total, p.limit) };
}
