// The browser pages' clients are typed from the route list: api/console/web/api-types.ts and
// api/portal/web/api-types.ts are what openapi-typescript makes of the /console/api and /portal/api
// operations now. A route changed without `npm run console:types` fails here (and the page's type
// check then sees the new shapes).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEB_TYPES, webApiTypes } from '../../scripts/console-api-types';
import { allRoutes } from '../../api/routes';

const MIN_OPERATIONS = { console: 19, portal: 12 };

describe.each(WEB_TYPES)('the $page API types', (w) => {
  it('are generated from the current route list', async () => {
    expect(fs.readFileSync(w.file, 'utf8') === (await webApiTypes(w)), `${w.file} is stale: run npm run console:types`).toBe(true);
  }, 60_000);

  it(`cover every ${w.prefix} operation of the route list`, () => {
    const text = fs.readFileSync(w.file, 'utf8');
    const ops = allRoutes({ maxMediaBytes: 1 }).filter((r) => r.kind === 'operation' && r.path.startsWith(w.prefix));
    expect(ops.length).toBeGreaterThanOrEqual(MIN_OPERATIONS[w.page]);
    for (const op of ops) expect(text, op.path).toContain(`"${op.path}": {`);
  });
});
