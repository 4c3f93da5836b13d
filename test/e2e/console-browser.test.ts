// The review console in real Chromium (issues 14 and 27): sign in with the one-time link `npm start`
// prints, see pending submissions with their thumbnails, open one (a claim another operator sees),
// approve it and watch it leave the queue, reject another with a reason, read the recent decisions,
// publish and take down with confirmations, settle a posture with a chosen value, find an artist
// profile by name, deep links with Back and Forward, where things stand, and 200 rapid j/Enter
// presses. Also: who cannot get in (partner key, reader, no credential, deactivated operator), and
// the CSRF guard.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigninCode } from '../../lib/console/sessions';
import { LOCAL_ISSUER } from '../../lib/identity';
import { CHROMIUM_PATH } from '../../scripts/tools/chromium';
import { apiKeyActor, bearerActor, TEST_ARTIST, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { runtimeArtistProfile } from '../helpers/publishing';
import { original, transform } from '../helpers/similar-images';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

const haveChromium = fs.existsSync(CHROMIUM_PATH);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM_PATH} is missing: \`npm run setup\` installs Debian's chromium`);

describe.skipIf(!haveChromium)('the review console in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let alice: TestCredential;
  let bob: TestCredential;
  let partner: TestCredential;
  let reader: TestCredential;
  const ids: string[] = [];
  let copyId = '';
  let copier: TestCredential;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    // The second-review policy's similar-image half on (the test stacks turn it off: their images look alike).
    stack = await startTestStack({ env: { SECOND_REVIEW_SIMILAR_MATCHES: 'true' } });
    alice = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review', 'portfolios:publish'] });
    bob = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review'] });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage', 'artists:read'] });
    reader = await bearerActor(stack, { permissions: ['portfolios:read'] });
    for (let i = 0; i < 2; i++) {
      const { id, done } = await stageAndVerify(stack, partner);
      expect(done.body.data.intakeStatus).toBe('awaiting_review');
      ids.push(id);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A fresh browser context (its own cookies), every request kept on this origin. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const origin = new URL(stack.url).origin;
    await page.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    // Expected: 401 from /console/api/me before sign-in (how the page learns nobody is signed in), 409 of the forced approve.
    page.on('console', (m) => void (m.type() === 'error' && !/status of (401|409)/.test(m.text()) && consoleErrors.push(m.text())));
    return page;
  }
  const row = (page: Page, id: string) => page.locator(`tr[data-submission="${id}"]`);

  let alicePage: Page;

  it('signs in with the one-time link and shows the queue with thumbnails, oldest first', async () => {
    const code = await createSigninCode(stack.sql, { subject: alice.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) });
    alicePage = await newPage();
    await alicePage.goto(`${stack.url}/console/signin?code=${code}`);
    await row(alicePage, ids[0]!).waitFor({ timeout: 30_000 });
    const order = await alicePage.locator('tr[data-submission]').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-submission')));
    expect(order).toEqual(ids);
    // Each thumbnail really loaded (a decoded image, not a broken one).
    // In the page (no DOM types here); a function, since the console's CSP forbids evaluating strings.
    await alicePage.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('table.queue img')].every((i: any) => i.complete && i.naturalWidth > 0));
    await expect(row(alicePage, ids[0]!).textContent()).resolves.toContain('dragon-sleeve.jpg');
    // The artist's organization beside the partner's (the partner's own here: it is tied to the artist).
    expect(await row(alicePage, ids[0]!).locator('[data-testid="artist-orgs"]').textContent()).toBe(`artist of ${partner.organizationId}`);
    const cookies = await alicePage.context().cookies();
    // Path /: the intake operator routes take the console's session too (one door).
    expect(cookies.find((c) => c.name === 'console_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    fs.mkdirSync(path.join(import.meta.dirname, '../../.data/tmp'), { recursive: true });
    await alicePage.screenshot({ path: path.join(import.meta.dirname, '../../.data/tmp/console-queue.png'), fullPage: true });
    // The link works once.
    const again = await newPage();
    await again.goto(`${stack.url}/console/signin?code=${code}`);
    await again.locator('[data-testid="signin"]').waitFor();
    expect(await again.locator('[role="alert"]').textContent()).toMatch(/used or has expired/);
  });

  it('opening an item claims it: another operator sees "in review by" and cannot decide', async () => {
    await row(alicePage, ids[0]!).click();
    await alicePage.locator('[data-testid="detail"]').waitFor();
    await alicePage.waitForFunction(() => (globalThis as any).document.querySelector('img.large')?.naturalWidth > 0);
    expect(await alicePage.locator('.events li').count()).toBeGreaterThanOrEqual(3);

    const bobPage = await newPage();
    await bobPage.goto(`${stack.url}/console`);
    await bobPage.locator('[data-testid="signin"] textarea').fill(bob.token!);
    await bobPage.locator('[data-testid="signin"] button').click();
    await row(bobPage, ids[0]!).waitFor();
    expect(await row(bobPage, ids[0]!).textContent()).toContain(`in review by ${alice.actorId}`);
    await row(bobPage, ids[0]!).click();
    await bobPage.locator('[data-testid="claimed"]').waitFor();
    expect(await bobPage.locator('button.primary').isDisabled()).toBe(true);
    // The API refuses too, whatever the page shows.
    const forced = await bobPage.evaluate(async (id) => {
      const me = (await (await fetch("/console/api/me")).json()) as { data: { csrf: string } };
      const r = await fetch(`/api/private/portfolio-intake/v1/submissions/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-console-csrf': me.data.csrf },
        body: JSON.stringify({ reviewNotes: 'Sneaking past the claim.' }),
      });
      return { status: r.status, body: await r.json() };
    }, ids[0]!);
    expect(forced).toMatchObject({ status: 409, body: { code: 'claimed_by_other' } });
    await bobPage.context().close();
  });

  it('approves one: it leaves the queue and is promoted; rejects another with a reason; both in recent decisions', async () => {
    await alicePage.locator('textarea[name="notes"]').fill('Clean photo, rights attested.');
    await alicePage.locator('button.primary').click();
    await alicePage.locator('[data-testid="result"]').waitFor({ timeout: 30_000 });
    expect(await alicePage.locator('[data-testid="status"]').textContent()).toBe('promoted_to_media_store');
    // The detail is read again after the decision: its history shows what the approve wrote.
    await alicePage.locator('.events li', { hasText: 'promoted_to_media_store' }).waitFor({ timeout: 10_000 });
    expect(await alicePage.locator('.events li', { hasText: '→ promoting' }).textContent()).toContain(`by ${alice.actorId}`);
    await alicePage.keyboard.press('Escape');
    await row(alicePage, ids[1]!).waitFor();
    expect(await row(alicePage, ids[0]!).count()).toBe(0);
    const status = await call(stack, 'GET', `${INTAKE}/submissions/${ids[0]}`, { headers: partner.headers });
    expect(status.body.data.intakeStatus).toBe('promoted_to_media_store');

    await alicePage.keyboard.press('Enter'); // the first row is selected: open it from the keyboard
    await alicePage.locator('[data-testid="detail"]').waitFor();
    await alicePage.locator('textarea[name="notes"]').fill('Consent form missing.');
    await alicePage.locator('select[name="reason-reject"]').selectOption('consent_missing');
    // The decisions the state takes, drawn from what the detail answer offers (one button each).
    expect(await alicePage.locator('.actions button').evaluateAll((bs) => bs.map((b) => [b.getAttribute('data-decision'), b.textContent]))).toEqual([['approve', 'Approve'], ['reject', 'Reject']]);
    await alicePage.screenshot({ path: path.join(import.meta.dirname, '../../.data/tmp/console-decide.png'), fullPage: true });
    await alicePage.locator('button.danger').click();
    await alicePage.locator('[data-testid="result"]').waitFor({ timeout: 30_000 });
    expect(await alicePage.locator('[data-testid="status"]').textContent()).toBe('rejected');
    const rejected = await call(stack, 'GET', `${INTAKE}/submissions/${ids[1]}`, { headers: partner.headers });
    expect(rejected.body.data).toMatchObject({ intakeStatus: 'rejected', rejectReason: 'consent_missing' });

    await alicePage.locator('header nav a', { hasText: 'Recent decisions' }).click();
    expect(new URL(alicePage.url()).pathname).toBe('/console/decisions');
    const decisions = alicePage.locator('[data-testid="decisions"]');
    await decisions.waitFor();
    const text = await decisions.textContent();
    expect(text).toContain('Clean photo, rights attested.');
    expect(text).toContain('consent_missing: Consent form missing.');
    expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
  });

  it('publishes the approved draft (plan first, then a confirmation), finds it in /api/v1/portfolios with a working image, and takes it down (confirmed)', async () => {
    await runtimeArtistProfile(stack, 'artist-ink-001', 'Ink Artist');
    await alicePage.locator('header nav a', { hasText: 'Published assets' }).click();
    const [doc] = await stack.sql<{ documentId: string }[]>`select document_id from media_documents where submission_id = ${ids[0]!}`;
    const card = () => alicePage.locator(`article[data-document="${doc!.documentId}"]`);
    await card().waitFor();
    expect(await card().locator('[data-testid="publication"]').textContent()).toBe('draft');
    await card().locator('button[name="plan"]').click();
    const plan = card().locator('[data-testid="plan"]');
    await plan.waitFor();
    // The plan in readable lines: no JSON anywhere.
    const planText = await plan.innerText();
    expect(planText).toContain('Ready to publish.');
    expect(planText).toMatch(/Public title\s+Dragon sleeve/);
    expect(planText).toMatch(/Renditions\s+.*\d+ × \d+, \d+ KiB/s);
    expect(planText).not.toMatch(/[{}"]/);
    expect((await call(stack, 'GET', '/api/v1/portfolios?limit=100', { headers: reader.headers })).body.data.map((a: { id: string }) => a.id)).not.toContain(`pfa_${doc!.documentId}`);

    // Publish asks first, with what will change; Cancel changes nothing.
    await card().locator('button[name="publish"]').click();
    const dialog = alicePage.locator('[data-testid="confirm"]');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`becomes public as pfa_${doc!.documentId}`);
    await dialog.locator('button[name="cancel"]').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await card().locator('[data-testid="publication"]').textContent()).toBe('draft');
    await card().locator('button[name="publish"]').click();
    await dialog.locator('button[name="confirm"]').click();
    await alicePage.locator('[data-testid="published-message"]', { hasText: 'published' }).waitFor({ timeout: 30_000 });
    await card().locator('[data-testid="publication"]', { hasText: 'published' }).waitFor();
    // The card shows the public renditions themselves, with their sizes.
    await alicePage.waitForFunction((id) => {
      const imgs = [...(globalThis as any).document.querySelectorAll(`article[data-document="${id}"] img[data-testid="rendition"]`)];
      return imgs.length >= 2 && imgs.every((i: any) => i.complete && i.naturalWidth > 0);
    }, doc!.documentId);
    const listed = (await call(stack, 'GET', '/api/v1/portfolios?limit=100', { headers: reader.headers })).body.data.find((a: { id: string }) => a.id === `pfa_${doc!.documentId}`);
    expect(listed).toMatchObject({ title: 'Dragon sleeve', artist_id: 'artist-ink-001' });
    const image = await fetch(listed.image_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');

    await card().locator('textarea[name="reason"]').fill('Client asked to remove it.');
    await card().locator('button[name="unpublish"]').click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Client asked to remove it.');
    expect(await dialog.innerText()).toMatch(/\d+ renditions are deleted/);
    expect((await fetch(listed.image_url)).status).toBe(200);
    await dialog.locator('button[name="confirm"]').click();
    await alicePage.locator('[data-testid="published-message"]', { hasText: 'taken down' }).waitFor({ timeout: 30_000 });
    await card().locator('[data-testid="publication"]', { hasText: 'unpublished' }).waitFor();
    expect((await fetch(listed.image_url)).status).toBe(410);
  });

  it('an operator verifies review_required identity evidence in the console; the next resolution answers verified_by_operator', async () => {
    const handle = uid('ink_').slice(0, 20);
    await stack.sql`insert into artist_identity_evidence (tenant_id, kind, value, artist_canonical_id) values (${partner.organizationId!}, 'instagram_handle', ${handle}, 'artist-ink-001')`;
    const resolve = () =>
      call(stack, 'POST', `${INTAKE}/artist-resolution-requests`, {
        headers: partner.headers,
        body: { idempotencyKey: uid('res-'), tenantId: partner.organizationId, source: 'partner_api', instagramHandle: handle },
      });
    expect((await resolve()).body.data.status).toBe('review_required');
    await alicePage.locator('header nav a', { hasText: 'Identity evidence' }).click();
    const item = alicePage.locator('article[data-resolution]', { hasText: handle });
    await item.waitFor();
    await item.locator('textarea[name="note"]').fill('Confirmed in a video call with the artist.');
    await item.locator('button[name="verify"]').click();
    await alicePage.locator('[data-testid="evidence-message"]', { hasText: 'verified_by_operator' }).waitFor();
    expect(await item.count()).toBe(0);
    expect((await resolve()).body.data).toMatchObject({ status: 'verified_by_operator', artistCanonicalId: 'artist-ink-001', legalKycVerified: false });
  });

  it('keeps out partner keys, readers, the unauthenticated, other origins and deactivated operators', async () => {
    for (const headers of [partner.headers, reader.headers, {}]) {
      for (const url of ['/console/api/queue', `/console/api/submissions/${ids[0]}`]) {
        const r = await call(stack, 'GET', url, { headers });
        expect(r.status, url).toBe(401);
        expect(r.body.code).toBe('unauthenticated');
      }
    }
    // The operator routes the console calls: no credential is 401, a partner's or a reader's is 403.
    const preview = `${INTAKE}/submissions/${ids[0]}/preview?size=thumb`;
    expect((await call(stack, 'GET', preview, {})).body.code).toBe('unauthenticated');
    for (const headers of [partner.headers, reader.headers]) expect((await call(stack, 'GET', preview, { headers })).status).toBe(403);
    expect((await call(stack, 'POST', '/console/api/session', { body: { token: reader.token } })).body.code).toBe('operator_required');
    expect((await call(stack, 'POST', '/console/api/session', { body: { token: 'not-a-token-at-all-xxxxxxx' } })).body.code).toBe('invalid_credential');

    // A session cookie alone does not make a write: the CSRF token and the origin are checked.
    const s = await call(stack, 'POST', '/console/api/session', { body: { token: alice.token } });
    expect(s.status).toBe(201);
    const cookie = (s.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrf = s.body.data.csrf as string;
    const { id } = await stageAndVerify(stack, partner);
    const approve = (headers: Record<string, string>) => call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: { cookie, ...headers }, body: { reviewNotes: 'Cross-site attempt.' } });
    expect((await approve({})).body.code).toBe('csrf_failed');
    expect((await approve({ 'x-console-csrf': csrf, origin: 'https://evil.example' })).body.code).toBe('csrf_failed');
    expect((await call(stack, 'GET', '/console/api/queue', { headers: { cookie } })).status).toBe(200);
    // A NUL in a filter is a 400 naming the field, not PostgreSQL's refusal as a 500 (schemathesis found it).
    for (const url of ['/console/api/queue?partner=a%00b', '/console/api/queue?tenantId=%00', '/console/api/artist-profiles?q=ab%00c']) {
      const bad = await call(stack, 'GET', url, { headers: { cookie } });
      expect(bad.status, url).toBe(400);
      expect(bad.body.code, url).toBe('validation_failed');
    }
    // The mapping is re-checked on every request: a deactivated operator is out at once.
    await stack.sql`update actor_mappings set active = false where actor_id = ${alice.actorId}`;
    expect((await call(stack, 'GET', '/console/api/queue', { headers: { cookie } })).body.code).toBe('actor_not_mapped');
    const [row] = await stack.sql<{ intakeStatus: string }[]>`select intake_status from submissions where submission_id = ${id}`;
    expect(row!.intakeStatus).toBe('awaiting_review');
  });

  it('flags a row whose image matches another artist\'s pending work, shows the match in the detail, and approves over it only when acknowledged', async () => {
    const image = await original('line-art', 5);
    const own = await stageAndVerify(stack, partner, image);
    copier = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const copy = await stageAndVerify(stack, copier, (await transform(image, 'jpeg60')).bytes, { artistCanonicalId: uid('artist-copy-') });
    expect(copy.done.body.data.intakeStatus).toBe('awaiting_review');
    // a fresh operator: alice was deactivated above
    const carol = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review'] });
    const code = await createSigninCode(stack.sql, { subject: carol.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) });
    let page = await newPage();
    await page.goto(`${stack.url}/console/signin?code=${code}`);
    await row(page, copy.id).waitFor({ timeout: 30_000 });
    expect(await row(page, copy.id).locator('[data-testid="similar-flag"]').count()).toBe(1);
    expect(await row(page, own.id).locator('[data-testid="similar-flag"]').count()).toBe(1);
    await row(page, copy.id).click();
    const match = page.locator(`[data-testid="matches"] li[data-match="${own.id}"]`);
    await match.waitFor();
    expect(await match.textContent()).toContain('awaiting review');
    expect(await match.textContent()).toContain(TEST_ARTIST);
    await page.waitForFunction((id) => (globalThis as any).document.querySelector(`li[data-match="${id}"] img`)?.naturalWidth > 0, own.id);
    await page.locator('textarea[name="notes"]').fill('Licensed from the original artist, contract on file.');
    await page.locator('button.primary').click();
    expect(await page.locator('[role="alert"]').textContent()).toMatch(/acknowledge/);
    await page.locator('input[name="acknowledgeMatches"]').check();
    await page.locator('button.primary').click();
    await page.locator('[data-testid="result"]').waitFor({ timeout: 30_000 });
    // Another artist's work: the second-review policy holds the approval for a different operator.
    await page.locator('[data-testid="second-review"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="status"]').textContent()).toBe('awaiting_second_review');
    expect(await page.locator('[data-testid="second-review"]').textContent()).toContain(`Approved first by ${carol.actorId}`);
    expect(await page.locator('[data-testid="second-review"]').textContent()).toContain("similar to another artist's work");
    await page.screenshot({ path: path.join(import.meta.dirname, '../../.data/tmp/console-second-review.png'), fullPage: true });
    const [rec] = await stack.sql<{ seenMatches: string[]; matches: { id: string }[] }[]>`select seen_matches, matches from decision_matches where submission_id = ${copy.id}`;
    expect(rec!.seenMatches).toContain(own.id);
    expect(rec!.matches.map((m) => m.id)).toContain(own.id);
    await page.context().close();
    // A second operator: the queue row says who approved first; their approval promotes it.
    const { page: second } = await operatorPage(['portfolio_intake:review']);
    await row(second, copy.id).waitFor({ timeout: 30_000 });
    expect(await row(second, copy.id).locator('[data-testid="second-review-flag"]').textContent()).toContain(carol.actorId);
    await row(second, copy.id).click();
    await second.locator('[data-testid="second-review"]').waitFor();
    expect(await second.locator('button.primary').textContent()).toContain('second operator');
    await second.locator('textarea[name="notes"]').fill('Second look: the licence covers this use.');
    await second.locator('input[name="acknowledgeMatches"]').check();
    await second.locator('button.primary').click();
    await second.locator('[data-testid="status"]', { hasText: 'promoted_to_media_store' }).waitFor({ timeout: 30_000 });
    await second.context().close();
    page = await newPage();
    await page.goto(`${stack.url}/console/signin?code=${await createSigninCode(stack.sql, { subject: carol.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) })}`);
    await page.locator('[data-testid="queue"]').waitFor({ timeout: 30_000 });
    // Open the match from the detail: the other submission's detail (the copy is a draft now: its id is the document's)
    await page.keyboard.press('Escape');
    await row(page, own.id).click();
    const [{ documentId }] = (await stack.sql<{ documentId: string }[]>`select document_id from media_documents where submission_id = ${copy.id}`) as unknown as [{ documentId: string }];
    const draft = page.locator(`[data-testid="matches"] li[data-match="${documentId}"]`);
    await draft.waitFor();
    expect(await draft.textContent()).toContain('draft');
    await draft.locator('a', { hasText: 'Open' }).click();
    await page.locator('[data-testid="status"]', { hasText: 'promoted_to_media_store' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/submissions/${copy.id}`);
    copyId = copy.id;
    await page.context().close();
  });

  it('serves the page under a strict Content-Security-Policy, its script a hashed asset from this origin', async () => {
    const r = await fetch(`${stack.url}/console`);
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.headers.get('content-security-policy')).not.toContain('unsafe');
    const script = /\/console\/assets\/(app-[0-9a-f]{12}\.js)/.exec(await r.text())![1]!;
    const js = await fetch(`${stack.url}/console/assets/${script}`);
    expect([js.status, js.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect((await fetch(`${stack.url}/console/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${stack.url}/console/assets/app-000000000000.js`)).status).toBe(404);
    // Every view's URL is the page (a deep link); the API's unknown paths are not.
    for (const view of ['/console/published', '/console/status', `/console/submissions/${ids[0]}`]) expect((await fetch(`${stack.url}${view}`)).headers.get('content-type'), view).toContain('text/html');
    expect((await fetch(`${stack.url}/console/api/nope`)).status).toBe(404);
  });
  /** A signed-in page of a fresh operator with these permissions. */
  async function operatorPage(permissions: string[]): Promise<{ page: Page; who: TestCredential }> {
    const who = await bearerActor(stack, { operator: true, permissions: permissions as never });
    const code = await createSigninCode(stack.sql, { subject: who.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) });
    const page = await newPage();
    await page.goto(`${stack.url}/console/signin?code=${code}`);
    await page.locator('[data-testid="queue"]').waitFor({ timeout: 30_000 });
    return { page, who };
  }

  it('publishing: posture settled with the value the operator chose, the artist profile found by name, and the profile flag follows the link', async () => {
    const { page, who: dave } = await operatorPage(['portfolio_intake:review', 'portfolios:publish']);
    // A draft whose consent is review_required.
    const pending = await stageAndVerify(stack, partner, undefined, { consentPosture: 'review_required' });
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${pending.id}/approve`, { headers: dave.headers, body: { reviewNotes: 'Fine, consent to be settled.' } });
    expect(approved.body.data.intakeStatus).toBe('promoted_to_media_store');
    const docOf = async (submissionId: string) => (await stack.sql<{ documentId: string }[]>`select document_id from media_documents where submission_id = ${submissionId}`)[0]!.documentId;
    const pendingDoc = await docOf(pending.id);
    await page.goto(`${stack.url}/console/published`); // a deep link, straight to the view
    const settleCard = page.locator(`article[data-document="${pendingDoc}"]`);
    await settleCard.waitFor();
    // Nothing is settled until a value is chosen and a note written.
    expect(await settleCard.locator('button[name="settle"]').isDisabled()).toBe(true);
    await settleCard.locator('select[name="consentPosture"]').selectOption('not_required');
    await settleCard.locator('textarea[name="note"]').fill('Healed-work photo: no client is identifiable.');
    await settleCard.locator('button[name="settle"]').click();
    await page.locator('[data-testid="published-message"]', { hasText: 'settled' }).waitFor();
    const [settled] = await stack.sql<{ consentPosture: string }[]>`select consent_posture from media_documents where document_id = ${pendingDoc}`;
    expect(settled!.consentPosture).toBe('not_required');

    // The copy's artist has no runtime profile: the plan says so; the lookup finds one by name.
    const copyDoc = await docOf(copyId);
    const card = () => page.locator(`article[data-document="${copyDoc}"]`);
    await card().locator('button[name="plan"]').click();
    expect(await card().locator('[data-testid="reasons"]').innerText()).toMatch(/no runtime profile/);
    await card().locator('input[name="artistLookup"]').fill('ink art');
    await card().locator('button[name="find"]').click();
    const found = card().locator('[data-testid="artist-matches"]');
    await found.waitFor();
    expect(await found.innerText()).toContain('Ink Artist');
    await found.locator('button[data-artist="artist-ink-001"]').click();
    await card().locator('button[name="publish"]').click();
    const dialog = page.locator('[data-testid="confirm"]');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Under the artist profile artist-ink-001, linked to');
    await dialog.locator('button[name="confirm"]').click();
    await card().locator('[data-testid="publication"]', { hasText: 'published' }).waitFor({ timeout: 30_000 });
    const [{ artistCanonicalId }] = (await stack.sql<{ artistCanonicalId: string }[]>`select artist_canonical_id from media_documents where document_id = ${copyDoc}`) as unknown as [{ artistCanonicalId: string }];
    const [link] = await stack.sql<{ artistId: string }[]>`select artist_id from artist_runtime_profiles where artist_canonical_id = ${artistCanonicalId}`;
    expect(link!.artistId).toBe('artist-ink-001');

    // A new submission of that artist: the queue reads the flag from the link, not the canonical id.
    const next = await stageAndVerify(stack, copier, undefined, { artistCanonicalId });
    await page.locator('header nav a', { hasText: 'Queue' }).click();
    const flag = page.locator(`tr[data-submission="${next.id}"] [data-testid="profile-flag"]`);
    await flag.waitFor();
    expect(await flag.textContent()).toContain('artist-ink-001');
    await page.context().close();
  });

  it('deep links: every view has a URL, Back and Forward move between them, and where things stand shows the queue figures', async () => {
    const { page } = await operatorPage(['portfolio_intake:review']);
    const [waiting] = await stack.sql<{ id: string }[]>`select submission_id as id from submissions where intake_status = 'awaiting_review' order by awaiting_since limit 1`;
    await page.goto(`${stack.url}/console/submissions/${waiting!.id}`);
    await page.locator('[data-testid="detail"]').waitFor();
    expect(await page.locator('[data-testid="status"]').textContent()).toBe('awaiting_review');
    await page.locator('header nav a', { hasText: 'Where things stand' }).click();
    await page.locator('[data-testid="status-page"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/status');
    const [{ n }] = (await stack.sql<{ n: number }[]>`select count(*)::int as n from submissions where intake_status = 'awaiting_review'`) as unknown as [{ n: number }];
    expect(Number(await page.locator('[data-testid="waiting"]').textContent())).toBe(n);
    expect(Number(await page.locator('[data-testid="decided-today"]').textContent())).toBeGreaterThanOrEqual(3);
    await page.goBack();
    await page.locator('[data-testid="detail"]').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/submissions/${waiting!.id}`);
    await page.goForward();
    await page.locator('[data-testid="status-page"]').waitFor();
    await page.goto(`${stack.url}/console/no-such-view`);
    expect(await page.locator('[role="alert"]').textContent()).toContain('No such page');
    await page.context().close();
  });

  it('200 rapid j/k/Enter presses: Enter opens the row highlighted when it is pressed, every time', async () => {
    for (let i = 0; i < 3; i++) await stageAndVerify(stack, partner);
    const { page } = await operatorPage(['portfolio_intake:review']);
    const rows = await page.locator('tr[data-submission]').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-submission')!));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    let seed = 27;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const wrong: string[] = [];
    for (let round = 0; round < 200; round++) {
      await page.locator(`tr[data-submission="${rows.at(-1)}"]`).waitFor();
      // A few moves, then Enter in the same instant: no wait for the page to draw between them.
      let at = 0;
      const moves = 1 + (next() % 3);
      for (let m = 0; m < moves; m++) {
        const key = next() % 4 === 0 ? 'k' : 'j';
        at = key === 'j' ? Math.min(at + 1, rows.length - 1) : Math.max(at - 1, 0);
        await page.keyboard.press(key);
      }
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/console\/submissions\//);
      const opened = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
      if (opened !== rows[at]) wrong.push(`round ${round}: opened ${opened}, highlighted ${rows[at]}`);
      await page.goBack();
      await page.waitForURL(/\/console$/);
    }
    expect(wrong).toEqual([]);
    await page.context().close();
  }, 300_000);
});
