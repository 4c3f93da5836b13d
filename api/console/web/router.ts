// The console's URLs: every view has one (a bookmark, a link shared between operators), and Back and
// Forward move between them. The server answers the same page for every /console URL.
import { useEffect, useState } from 'preact/hooks';

export type View =
  | { name: 'queue' }
  | { name: 'submission'; id: string }
  | { name: 'decisions' }
  | { name: 'published' }
  | { name: 'evidence' }
  | { name: 'status' };

export function viewOf(pathname: string): View | undefined {
  const parts = pathname.replace(/^\/console\/?/, '').split('/').filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'queue')) return { name: 'queue' };
  if (parts[0] === 'submissions' && parts.length === 2) return { name: 'submission', id: decodeURIComponent(parts[1]!) };
  if (parts.length === 1 && (parts[0] === 'decisions' || parts[0] === 'published' || parts[0] === 'evidence' || parts[0] === 'status')) return { name: parts[0] };
  return undefined;
}

export function pathOf(v: View): string {
  switch (v.name) {
    case 'queue':
      return '/console';
    case 'submission':
      return `/console/submissions/${encodeURIComponent(v.id)}`;
    default:
      return `/console/${v.name}`;
  }
}

/** Go to a view: a new history entry (Back returns), or in place of the current one. */
export function go(v: View, o: { replace?: boolean } = {}): void {
  const path = pathOf(v);
  if (path === location.pathname + location.search) return;
  if (o.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The view the address bar names, following Back, Forward and go(). */
export function useView(): View | undefined {
  const [view, setView] = useState(() => viewOf(location.pathname));
  useEffect(() => {
    const on = () => setView(viewOf(location.pathname));
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return view;
}

/** A link to a view that stays in the page (a plain link with a modifier key or a middle click opens a tab). */
export function linkTo(v: View) {
  return {
    href: pathOf(v),
    onClick: (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      go(v);
    },
  };
}
