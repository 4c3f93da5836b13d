// The browser pages' clients are typed from the route list: api/console/web/api-types.ts and
// api/portal/web/api-types.ts are what openapi-typescript makes of the operations each page calls
// now (the console: its /console/api ones and the intake operator routes its session opens; the
// portal: its /portal/api ones). A route changed without `npm run console:types` fails here (and the
// page's type check then sees the new shapes).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEB_TYPES, webApiTypes } from '../../scripts/console-api-types';
import { allRoutes } from '../../api/route-list';
import { isOperation } from '../../api/routing/route';

/** At least this many of each page's own operations, and of the others it calls. */
const MIN_OPERATIONS = { console: [10, 10], portal: [12, 0] } as const;

describe.each(WEB_TYPES)('the $page API types', (w) => {
  it('are generated from the current route list', async () => {
    expect(fs.readFileSync(w.file, 'utf8') === (await webApiTypes(w)), `${w.file} is stale: run npm run console:types`).toBe(true);
  }, 60_000);

  it(`cover every operation the ${w.page} calls`, () => {
    const text = fs.readFileSync(w.file, 'utf8');
    const ops = allRoutes({ maxMediaBytes: 1 }).filter(isOperation);
    const own = ops.filter((r) => r.path.startsWith(w.prefix));
    const others = ops.filter((r) => !r.path.startsWith(w.prefix) && w.alsoCalls(r));
    expect(own.length).toBeGreaterThanOrEqual(MIN_OPERATIONS[w.page][0]);
    expect(others.length).toBeGreaterThanOrEqual(MIN_OPERATIONS[w.page][1]);
    for (const op of [...own, ...others]) expect(text, op.path).toContain(`"${op.path}": {`);
  });
});
