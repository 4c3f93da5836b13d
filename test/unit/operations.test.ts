// Pure rules of issue 17: who may read /metrics, which limit an operation counts against, and the
// Web UI's current-details line.
import { describe, expect, it } from 'vitest';
import { rateFamilyOf } from '../../api/routing/route';
import { allRoutes } from '../../api/route-list';
import { metricsAccess } from '../../lib/metrics-access';
import { currentDetailsOf } from '../../workflows/intake-details';

describe('metricsAccess', () => {
  it('needs the token when one is set, is open on a developer stack without one, and hidden in production without one', () => {
    expect(metricsAccess({ token: 'a-long-metrics-token', production: true }, 'Bearer a-long-metrics-token')).toBe('allowed');
    expect(metricsAccess({ token: 'a-long-metrics-token', production: false }, 'Bearer a-long-metrics-tokeN')).toBe('unauthenticated');
    expect(metricsAccess({ token: 'a-long-metrics-token', production: false }, undefined)).toBe('unauthenticated');
    expect(metricsAccess({ token: 'a-long-metrics-token', production: false }, 'a-long-metrics-token')).toBe('unauthenticated');
    expect(metricsAccess({ token: undefined, production: false }, undefined)).toBe('allowed');
    expect(metricsAccess({ token: undefined, production: true }, 'Bearer anything')).toBe('hidden');
  });
});

describe('rate-limit families', () => {
  const ops = allRoutes({ maxMediaBytes: 1024 }).filter((r) => r.kind === 'operation');
  const familyOf = (method: string, path: string) => {
    const op = ops.find((o) => o.method === method && o.path === path);
    if (!op) throw new Error(`no ${method} ${path}`);
    return rateFamilyOf(op);
  };
  it('counts creates, uploads, signals, reads and public requests apart, and never probes', () => {
    const intake = '/api/private/portfolio-intake/v1';
    expect(familyOf('post', `${intake}/submissions`)).toBe('create');
    expect(familyOf('put', `${intake}/uploads/{key}`)).toBe('upload');
    expect(familyOf('post', `${intake}/submissions/{submissionId}/approve`)).toBe('signal');
    expect(familyOf('post', `${intake}/submissions/{submissionId}/upload-complete`)).toBe('signal');
    expect(familyOf('get', `${intake}/submissions/{submissionId}`)).toBe('read');
    expect(familyOf('get', '/api/v1/search')).toBe('read');
    expect(familyOf('get', '/api/v1/studios')).toBe('public');
    expect(familyOf('get', '/media/{assetId}/{rendition}.{ext}')).toBe('public');
    expect(familyOf('get', '/api/v1/health/live')).toBe('none');
    expect(familyOf('get', '/api/v1/health/ready')).toBe('none');
  });
});

describe('the Web UI current-details line', () => {
  const at = new Date('2026-11-23T10:00:00.000Z');
  const deadline = new Date('2026-11-23T10:20:00.000Z');
  const base = { failureCode: null, rejectReasonCode: null, mediaStoreDocumentId: null };
  it('says what the submission waits for, or how it ended', () => {
    expect(currentDetailsOf({ ...base, intakeStatus: 'staged' }, at, deadline)).toBe('waiting for the upload and upload-complete until 2026-11-23T10:20:00.000Z');
    expect(currentDetailsOf({ ...base, intakeStatus: 'awaiting_review' }, at, deadline)).toBe('awaiting review since 2026-11-23T10:00:00.000Z');
    expect(currentDetailsOf({ ...base, intakeStatus: 'verification_failed', failureCode: 'undecodable' }, at, deadline)).toBe(
      'verification failed: undecodable (2026-11-23T10:00:00.000Z)',
    );
    expect(currentDetailsOf({ ...base, intakeStatus: 'rejected', rejectReasonCode: 'rights_unclear' }, at, deadline)).toMatch(/^rejected by an operator: rights_unclear/);
    expect(currentDetailsOf({ ...base, intakeStatus: 'promoted_to_media_store', mediaStoreDocumentId: 'mdoc_1' }, at, deadline)).toMatch(/as mdoc_1 /);
  });

  it('says what a work step does, from the transition table’s WORK', () => {
    expect(currentDetailsOf({ ...base, intakeStatus: 'verifying' }, at, deadline)).toBe('verifying the uploaded bytes since 2026-11-23T10:00:00.000Z');
    expect(currentDetailsOf({ ...base, intakeStatus: 'promoting' }, at, deadline)).toBe('approved; promoting into the private media store since 2026-11-23T10:00:00.000Z');
  });
});
