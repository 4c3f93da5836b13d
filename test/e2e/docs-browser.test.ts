// The docs page in a real browser: headless Debian Chromium loads /docs from a running stack, shows
// the operations of both documents, and sends one request from the page's try-it panel with the
// demo partner key it offers. Every request the page makes must stay on this origin (no CDN).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../scripts/tools/chromium';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { seedTestDirectory } from '../helpers/directory-seed';
import { startTestStack, type TestStack } from '../helpers/stack';

const haveChromium = fs.existsSync(CHROMIUM_PATH);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM_PATH} is missing: \`npm run setup\` installs Debian's chromium`);

describe.skipIf(!haveChromium)('the docs page in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let demo: TestCredential;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    await seedTestDirectory(stack);
    // What `npm start` does on the embedded stack: a mapped demo partner key in .data/secrets.
    demo = await apiKeyActor(stack, { permissions: ['search:read', 'artists:read'] });
    const keyFile = path.join(stack.cfg.DATA_DIR, 'secrets', 'demo-partner-key');
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    fs.writeFileSync(keyFile, demo.key!);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('renders both documents and sends an authenticated request from the try-it panel', async () => {
    const page = await browser.newPage();
    const origin = new URL(stack.url).origin;
    const offOrigin: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      offOrigin.push(url);
      return route.abort();
    });
    const consoleErrors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));

    await page.goto(`${stack.url}/docs`);
    await page.locator('.opblock-summary-path', { hasText: '/api/private/portfolio-intake/v1/submissions' }).first().waitFor({ timeout: 30_000 });

    // Switch to the directory document in the top bar and open GET /api/v1/search.
    await page.locator('.topbar select').selectOption({ index: 1 });
    const search = page.locator('#operations-search-search');
    await search.waitFor({ timeout: 30_000 });
    await search.locator('.opblock-summary').click();
    const serverHits: string[] = [];
    page.on('request', (r) => void (r.url().includes('/api/v1/search') && serverHits.push(r.headers()['x-api-key'] ?? '')));
    await search.locator('button.execute').click();
    const code = search.locator('.live-responses-table tbody .response-col_status').first();
    await code.waitFor({ timeout: 30_000 });
    expect((await code.innerText()).trim()).toBe('200');
    expect(await search.locator('.live-responses-table .highlight-code').first().innerText()).toContain('"success": true');
    // The request carried the demo key the page offered, and nothing left this origin.
    expect(serverHits).toEqual([demo.key]);
    expect(offOrigin).toEqual([]);
    expect(consoleErrors.filter((e) => !e.includes('favicon'))).toEqual([]);
  }, 90_000);
});
