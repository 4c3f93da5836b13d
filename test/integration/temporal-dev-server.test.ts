// The dev server launcher: a start that cannot bind its port fails at once with the reason (not
// after the readiness timeout), as the error the stack retries on another port; its Web UI decodes
// through the API's codec endpoint when given one.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { pathVariable } from '../../lib/config';
import { freePort } from '../../lib/net/free-port';
import { findTemporalCli } from '../../temporal/cli-path';
import { DevServerExitedError, startDevServer } from '../../temporal/dev-server';
import { eventually } from '../helpers/eventually';

const cliPath = findTemporalCli({ explicit: process.env.TEMPORAL_CLI_PATH, pathVar: pathVariable() });
// whatever connects (the launcher's readiness probe) is hung up on, so closing it does not wait
const taken = net.createServer((socket) => socket.destroy());
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

describe.skipIf(!cliPath)('temporal dev server launcher', () => {
  it('reports a port already in use as an exit with the server\'s own words, within seconds', async () => {
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', () => resolve()));
    const started = Date.now();
    const err = await startDevServer({ cliPath: cliPath!, port, readyTimeoutMs: 60_000 }).then(
      (s) => { void s.stop(); return undefined; },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DevServerExitedError);
    expect((err as Error).message).toMatch(/^temporal dev server exited \(code \d+, signal null\): .+/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it("points the Web UI at the API's codec endpoint (--ui-codec-endpoint)", async () => {
    const uiCodecEndpoint = 'http://127.0.0.1:3999/api/private/portfolio-intake/v1/temporal-codec';
    const server = await startDevServer({ cliPath: cliPath!, port: await freePort(), uiPort: await freePort(), uiCodecEndpoint, readyTimeoutMs: 60_000 });
    try {
      const settings = await eventually(async () => {
        const r = await fetch(`${server.uiUrl}/api/v1/settings`).catch(() => undefined);
        return r?.ok ? ((await r.json()) as { Codec: { Endpoint: string } }) : undefined;
      }, 30_000);
      expect(settings.Codec.Endpoint).toBe(uiCodecEndpoint);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
