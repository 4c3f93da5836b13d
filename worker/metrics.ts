// The worker's /metrics (Prometheus text): the Temporal SDK's own runtime metrics (task slots,
// poll and schedule latencies, activity execution latency and failures by activity type, the
// sticky cache size, ...) from the SDK's Prometheus exporter, which listens on a loopback port of
// its own, followed by this process's figures from prom-client. One endpoint to scrape, guarded
// like the API's (lib/metrics-access.ts).
import http from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { metricsAccess } from '../lib/metrics-access';

export interface WorkerMetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startWorkerMetricsServer(o: {
  host: string;
  port: number;
  /** The SDK exporter's address (Runtime telemetryOptions.metrics.prometheus.bindAddress); without it only the process's figures. */
  coreMetricsAddress: string | undefined;
  token: string | undefined;
  production: boolean;
  /** This process's own figures (the intake counters); default metrics are added to it. */
  registry?: Registry | undefined;
}): Promise<WorkerMetricsServer> {
  const registry = o.registry ?? new Registry();
  collectDefaultMetrics({ register: registry });
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') return void res.writeHead(404).end();
    const access = metricsAccess({ token: o.token, production: o.production }, req.headers.authorization);
    if (access === 'hidden') return void res.writeHead(404).end();
    if (access === 'unauthenticated') return void res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end();
    void (async () => {
      const core = !o.coreMetricsAddress ? '' : await fetch(`http://${o.coreMetricsAddress}/metrics`, { signal: AbortSignal.timeout(2000) })
        .then((r) => (r.ok ? r.text() : ''))
        .catch(() => '');
      const own = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(`${core.trimEnd()}${core ? '\n' : ''}${own}`);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address() as { port: number };
  return {
    url: `http://${o.host}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
