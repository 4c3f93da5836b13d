// The partner portal in real Chromium (issue 24): sign in; create a key with stage and use it on the
// API; rotate with a 1 h overlap and see both keys work; revoke and get 401; open the docs from
// "Try it in the docs" and see X-API-Key prefilled. Then each handoff condition failing on its own
// leaves the docs unprefilled: signed out, another person's handoff, the permission removed, the
// handoff expired (a stack with a 10 s handoff lifetime).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigninCode } from '../../lib/console/sessions';
import { LOCAL_ISSUER } from '../../lib/identity';
import { upsertMapping } from '../../lib/identity/actors';
import { CHROMIUM_PATH } from '../../scripts/tools/chromium';
import { bearerActor, TEST_ARTIST, tieArtist, type TestCredential } from '../helpers/auth';
import { call, INTAKE, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, uid, type TestStack } from '../helpers/stack';

const haveChromium = fs.existsSync(CHROMIUM_PATH);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM_PATH} is missing: \`npm run setup\` installs Debian's chromium`);
const SHOTS = path.join(process.cwd(), 'test-results');

describe.skipIf(!haveChromium)('the partner portal in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // A short handoff lifetime, so that one expires within the test.
    stack = await startTestStack({ worker: false, env: { PORTAL_HANDOFF_TTL_SECONDS: '12' } });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const person = (organizationId = uid('org-')) => bearerActor(stack, { organizationId, permissions: ['partner_api_keys:manage'], role: 'partner_admin' });

  async function newContext(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const origin = new URL(stack.url).origin;
    await page.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    // Expected: the 401 of /portal/api/me before sign-in (how the page learns nobody is signed in),
    // and the 422 of the other person's handoff the test sends on purpose.
    page.on('console', (m) => void (m.type() === 'error' && !/status of (401|422)/.test(m.text()) && pageErrors.push(m.text())));
    page.on('pageerror', (e) => void pageErrors.push(e.message));
    return { context, page };
  }

  /** Signed in through a one-time link, as `npm run iam -- portal-link` prints it. */
  async function signedIn(p: TestCredential): Promise<{ context: BrowserContext; page: Page }> {
    const c = await newContext();
    const code = await createSigninCode(stack.sql, { subject: p.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000), surface: 'portal' });
    await c.page.goto(`${stack.url}/portal/signin?code=${code}`);
    await c.page.getByRole('heading', { name: "Your organization's keys" }).waitFor();
    return c;
  }

  /** Create a key in the page; returns the key shown once. */
  async function createKey(page: Page, name: string, o: { stage?: boolean } = {}): Promise<string> {
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Artists').check();
    if (o.stage) {
      await page.getByText('Advanced: submit portfolio media').click();
      await page.getByLabel('Stage portfolio media').check();
    }
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key-value').textContent())!;
    expect(key).toMatch(/^tpk_/);
    return key;
  }

  /** What /docs prefilled: the page's own note, and Swagger UI's authorization state. */
  async function docsPrefill(page: Page): Promise<{ note: string; kind: string; key: string | undefined }> {
    await page.goto(`${stack.url}/docs`);
    const note = page.locator('#key-note');
    await eventually(async () => ((await note.getAttribute('data-prefill')) ? true : undefined), 20_000);
    await page.locator('.swagger-ui .info').first().waitFor({ timeout: 20_000 });
    const key = await page.evaluate(() => {
      const ui = (globalThis as unknown as { ui?: { authSelectors: { authorized(): { toJS(): Record<string, { value?: string }> } } } }).ui;
      return ui?.authSelectors.authorized().toJS().ApiKeyAuth?.value;
    });
    return { note: (await note.textContent()) ?? '', kind: (await note.getAttribute('data-prefill'))!, key };
  }

  it('create with stage and use it on the API; rotate with a 1 h overlap and both work; revoke and 401; Try it in the docs prefills', async () => {
    const pat = await person();
    const { page, context } = await signedIn(pat);
    await page.screenshot({ path: path.join(SHOTS, 'portal-empty.png'), fullPage: true });

    const key = await createKey(page, 'Booking site', { stage: true });
    await page.screenshot({ path: path.join(SHOTS, 'portal-created.png'), fullPage: true });
    // The key reads the directory and stages a submission (for an artist the organization is tied to).
    expect((await call(stack, 'GET', '/api/v1/artists?limit=1', { headers: { 'x-api-key': key } })).status).toBe(200);
    await tieArtist(stack, pat.organizationId!, TEST_ARTIST);
    const staged = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: { 'x-api-key': key }, body: submissionBody({ actorId: 'portal-key', headers: {}, organizationId: pat.organizationId! }) });
    expect(staged.status, JSON.stringify(staged.body)).toBe(201);
    // Copy puts it on the clipboard.
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(key);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    // Rotate with a 1 h overlap: both keys work.
    const row = page.locator('tr', { hasText: 'Booking site' }).first();
    await row.getByRole('button', { name: 'Rotate' }).click();
    await row.getByLabel('Old key keeps working for').selectOption('3600');
    await row.getByRole('button', { name: 'Rotate now' }).click();
    const rotated = (await page.locator('#new-key-value').textContent())!;
    expect(rotated).not.toBe(key);
    await expect.poll(async () => page.getByText(/The old key works until/).count()).toBe(1);
    const works = async (k: string) => (await call(stack, 'GET', '/api/v1/artists?limit=1', { headers: { 'x-api-key': k } })).status;
    expect([await works(key), await works(rotated)]).toEqual([200, 200]);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    // Revoke the new one (confirmed): 401 at once.
    const newRow = page.locator(`tr[data-key-id="${rotated.split('_')[1]}"]`);
    await newRow.getByRole('button', { name: 'Revoke' }).click();
    await newRow.getByRole('button', { name: 'Revoke now' }).click();
    await expect.poll(async () => newRow.locator('td.status').textContent()).toBe('revoked');
    expect(await works(rotated)).toBe(401);
    await page.screenshot({ path: path.join(SHOTS, 'portal-keys.png'), fullPage: true });

    // Webhooks: register an endpoint (its secret shown once), rotate its secret, open its deliveries, delete it.
    await page.getByLabel('Receiver URL').fill('http://127.0.0.1:9/hooks');
    await page.getByLabel('Description (optional)').fill('Booking system');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    const secret = (await page.locator('code.secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const endpoint = page.locator('li.endpoint', { hasText: 'http://127.0.0.1:9/hooks' });
    await endpoint.waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    await endpoint.getByLabel('Old secret keeps signing for').selectOption('3600');
    await endpoint.getByRole('button', { name: 'Rotate now' }).click();
    const rotatedSecret = (await page.locator('code.secret').textContent())!;
    expect(rotatedSecret).toMatch(/^whsec_/);
    expect(rotatedSecret).not.toBe(secret);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await endpoint.getByRole('button', { name: 'Deliveries' }).click();
    await endpoint.getByText('Nothing sent yet.').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'portal-webhooks.png'), fullPage: true });
    await endpoint.getByRole('button', { name: 'Delete', exact: true }).click();
    await endpoint.getByRole('button', { name: 'Delete now' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    const [gone] = await stack.sql<{ n: number }[]>`select count(*)::int as n from webhook_endpoints where organization_id = ${pat.organizationId!} and deleted_at is null`;
    expect(gone!.n).toBe(0);

    // A fresh key, then "Try it in the docs" from its row: /docs prefills it.
    const third = await createKey(page, 'Docs trial');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.locator(`tr[data-key-id="${third.split('_')[1]}"]`).getByRole('button', { name: 'Try it in the docs' }).click();
    await page.waitForURL(`${stack.url}/docs`);
    const docs = await docsPrefill(page);
    expect(docs).toMatchObject({ kind: 'portal', key: third });
    expect(docs.note).toContain(`tpk_${third.split('_')[1]}`);
    await page.screenshot({ path: path.join(SHOTS, 'portal-docs-prefilled.png') });
    const audit = await stack.sql<{ n: number }[]>`select count(*)::int as n from access_audit where action = 'docs_prefill' and subject = ${pat.actorId}`;
    expect(audit[0]!.n).toBeGreaterThanOrEqual(1);
    await context.close();
  }, 120_000);

  it('each handoff condition failing on its own leaves the docs unprefilled: signed out, another person, the permission removed, expired', async () => {
    // Signed out: the handoff cookie stays, the session does not.
    {
      const pat = await person();
      const { page, context } = await signedIn(pat);
      const key = await createKey(page, 'Sign-out case');
      await page.getByRole('button', { name: 'Try it in the docs' }).first().click();
      await page.waitForURL(`${stack.url}/docs`);
      expect((await docsPrefill(page)).key).toBe(key);
      await page.goto(`${stack.url}/portal`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await docsPrefill(page)).toMatchObject({ kind: 'none', key: undefined });
      expect((await docsPrefill(page)).note).toContain('Paste your API key');
      await context.close();
    }
    // Another person's handoff, in this person's session (same organization, even).
    {
      const org = uid('org-');
      const a = await person(org);
      const b = await person(org);
      const made = await (async () => {
        const s = await call(stack, 'POST', '/portal/api/session', { body: { token: a.token } });
        const h = { cookie: s.headers.get('set-cookie')!.split(';')[0]!, 'x-portal-csrf': s.body.data.csrfToken };
        return (await call(stack, 'POST', '/portal/api/keys', { headers: h, body: { name: 'A', permissions: ['artists:read'] } })).body.data;
      })();
      const { page, context } = await signedIn(b);
      const handed = await page.evaluate(async ([token, csrf]) => {
        const me = (await (await fetch('/portal/api/me')).json()) as { data: { csrfToken: string } };
        const r = await fetch('/portal/api/docs-handoff', { method: 'POST', headers: { 'content-type': 'application/json', 'x-portal-csrf': me.data.csrfToken }, body: JSON.stringify({ handoff: token }) });
        return [r.status, csrf];
      }, [made.docsHandoff.token, ''] as const);
      expect(handed[0]).toBe(422);
      // Even planted as the cookie by hand, the prefill refuses it.
      await context.addCookies([{ name: 'docs_handoff', value: made.docsHandoff.token, url: `${stack.url}/portal/api/` }]);
      expect(await docsPrefill(page)).toMatchObject({ kind: 'none', key: undefined });
      await context.close();
    }
    // The permission removed after the handoff.
    {
      const pat = await person();
      const { page, context } = await signedIn(pat);
      const key = await createKey(page, 'Permission case');
      await page.getByRole('button', { name: 'Try it in the docs' }).first().click();
      await page.waitForURL(`${stack.url}/docs`);
      expect((await docsPrefill(page)).key).toBe(key);
      await upsertMapping(stack.sql, {
        actorId: pat.actorId, credentialKind: 'bearer', credentialSubject: pat.subject!, credentialIssuer: LOCAL_ISSUER,
        role: 'partner_admin', permissions: ['artists:read'], organizationId: pat.organizationId!,
      });
      expect(await docsPrefill(page)).toMatchObject({ kind: 'none', key: undefined });
      await context.close();
    }
    // Expired: the stack's handoffs last 12 s.
    {
      const pat = await person();
      const { page, context } = await signedIn(pat);
      const key = await createKey(page, 'Expiry case');
      await page.getByRole('button', { name: 'Try it in the docs' }).first().click();
      await page.waitForURL(`${stack.url}/docs`);
      expect((await docsPrefill(page)).key).toBe(key);
      const [row] = await stack.sql<{ at: Date }[]>`select now() + interval '13 seconds' as at`;
      await eventually(async () => Date.now() > row!.at.getTime(), 20_000, 500);
      expect(await docsPrefill(page)).toMatchObject({ kind: 'none', key: undefined });
      await context.close();
    }
    expect(pageErrors, pageErrors.join(" | ")).toEqual([]);
  }, 180_000);
});
