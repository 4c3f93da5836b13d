// The console's client is typed from the route list: api/console/web/api-types.ts is what
// openapi-typescript makes of the operations the console calls now (its own /console/api ones and the
// intake operator routes its session opens). A route changed without
// `npm run console:types` fails here (and the page's type check then sees the new shapes).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_API_TYPES, consoleApiTypes } from '../../scripts/console-api-types';
import { allRoutes } from '../../api/route-list';

describe('the console API types', () => {
  it('are generated from the current route list', async () => {
    expect(fs.readFileSync(CONSOLE_API_TYPES, 'utf8') === (await consoleApiTypes()), 'api/console/web/api-types.ts is stale: run npm run console:types').toBe(true);
  }, 60_000);

  it('cover every console and operator operation of the route list', () => {
    const text = fs.readFileSync(CONSOLE_API_TYPES, 'utf8');
    const ops = allRoutes({ maxMediaBytes: 1 }).filter((r) => r.kind === 'operation' && (r.auth === 'console' || r.auth === 'operator'));
    expect(ops.filter((r) => r.path.startsWith('/console/api/')).length).toBeGreaterThanOrEqual(10);
    expect(ops.filter((r) => r.path.startsWith('/api/private/')).length).toBeGreaterThanOrEqual(10);
    for (const op of ops) expect(text, op.path).toContain(`"${op.path}": {`);
  });
});
