// The stack launcher's ports: each one it listens on and announces must be a real port (0 would let
// the system pick one nobody is told about; embedded PostgreSQL failed on it without a message).
import { describe, expect, it } from 'vitest';
import { stackConfigSchema } from '../../lib/config/schema';

describe('npm start configuration', () => {
  it.each(['PORT', 'POSTGRES_PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT'])('refuses %s=0 with a sentence that says why', (name) => {
    const r = stackConfigSchema.safeParse({ [name]: '0' });
    expect(r.success).toBe(false);
    expect(r.error!.issues).toEqual([expect.objectContaining({ path: [name], message: expect.stringContaining('must be a port from 1 to 65535') })]);
  });

  it('takes WORKER_METRICS_PORT=0 (no worker metrics) and the defaults', () => {
    const r = stackConfigSchema.safeParse({ WORKER_METRICS_PORT: '0' });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect(r.data).toMatchObject({ WORKER_METRICS_PORT: 0, TEMPORAL_PORT: 7233 });
  });
});
