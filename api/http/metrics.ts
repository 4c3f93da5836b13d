// The API's metrics (Prometheus text, prom-client): request durations by route and status, intake
// transitions by status, the review queue's depth and oldest age, submissions by status,
// rate-limit refusals, Temporal call failures, and the process's own figures. Served by GET
// /metrics (api/routes/metrics.ts).
import type { Request, Response } from 'express';
import { queueFigures } from '../../lib/console/review';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Sql } from '../../lib/db';
import { transitionsWritten } from '../../lib/intake/transitions';
import { deliveryBacklog } from '../../lib/webhooks/deliveries';
import { feedLag } from '../../lib/search-engine/indexer';

export interface ApiMetrics {
  registry: Registry;
  /** The exposition text, with the database figures read now. */
  text(): Promise<string>;
  observeRequest(req: Request, res: Response, seconds: number): void;
  rateLimited(family: string): void;
  temporalFailure(operation: string): void;
  /** Shadow reads (cutover stage shadow_reads): a sampled read the legacy store disagreed with. */
  shadowMismatch(route: string): void;
  shadowCompared(route: string, result: 'match' | 'mismatch' | 'error'): void;
  /** GET /search answered by this backend (opensearch, or postgres-fallback when the engine failed). */
  searchAnswered(backend: 'opensearch' | 'postgres-fallback'): void;
}

export function createApiMetrics(sql: Sql, o: { searchFeed?: boolean } = {}): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({ name: 'rate_limit_refusals_total', help: 'Requests refused with 429, by limit', labelNames: ['limit'], registers: [registry] });
  const temporalFailures = new Counter({
    name: 'temporal_call_failures_total',
    help: 'Temporal calls from the API that failed (unreachable, deadline, error), and worker checks that found no worker, by operation',
    labelNames: ['operation'],
    registers: [registry],
  });
  registry.registerMetric(transitionsWritten);
  const shadowMismatches = new Counter({
    name: 'cutover_shadow_mismatches_total',
    help: 'Shadow reads (cutover stage shadow_reads) whose legacy answer disagreed with the runtime answer, by route',
    labelNames: ['route'],
    registers: [registry],
  });
  const shadowReads = new Counter({ name: 'cutover_shadow_reads_total', help: 'Shadow comparisons run, by route and result (match, mismatch, error)', labelNames: ['route', 'result'], registers: [registry] });
  // Read from PostgreSQL when scraped (refresh, before the text is written), so every instance
  // reports the same truth.
  const scrapeErrors = new Counter({ name: 'metrics_database_read_failures_total', help: 'Scrapes whose database figures could not be read', registers: [registry] });
  const queueDepth = new Gauge({ name: 'intake_review_queue_depth', help: 'Submissions awaiting review', registers: [registry] });
  const queueAge = new Gauge({ name: 'intake_review_queue_oldest_age_seconds', help: 'Age of the oldest submission awaiting review (0 when none)', registers: [registry] });
  const byStatus = new Gauge({ name: 'intake_submissions', help: 'Submissions by intake status', labelNames: ['status'], registers: [registry] });
  const searchAnswers = new Counter({ name: 'search_backend_answers_total', help: 'GET /search answers with SEARCH_BACKEND=opensearch, by backend (opensearch, postgres-fallback)', labelNames: ['backend'], registers: [registry] });
  const searchLag = new Gauge({ name: 'search_index_lag_seconds', help: 'Age of the oldest search_documents change not yet in OpenSearch (0 when none)', registers: [registry] });
  const webhookOpen = new Gauge({ name: 'webhook_deliveries_open', help: 'Webhook deliveries not yet ended (pending or delivering)', registers: [registry] });
  const webhookAge = new Gauge({ name: 'webhook_oldest_open_delivery_age_seconds', help: 'Age of the oldest webhook delivery not yet ended (0 when none)', registers: [registry] });
  const searchPending = new Gauge({ name: 'search_index_pending_changes', help: 'search_documents changes not yet in OpenSearch (counted up to 100,000)', registers: [registry] });
  /** One group of figures read from PostgreSQL: on a failure the scrape counts it and the figures keep their last values. */
  const read = async (fill: () => Promise<void>) => {
    try {
      await fill();
    } catch {
      scrapeErrors.inc();
    }
  };
  const refresh = async () => {
    if (o.searchFeed)
      await read(async () => {
        const lag = await feedLag(sql);
        searchLag.set(lag.lagSeconds);
        searchPending.set(lag.pending);
      });
    await read(async () => {
      const b = await deliveryBacklog(sql);
      webhookOpen.set(b.open);
      webhookAge.set(b.oldestAgeSeconds);
    });
    await read(async () => {
      const f = await queueFigures(sql);
      queueDepth.set(f.queueDepth);
      queueAge.set(f.oldestAgeSeconds);
      byStatus.reset();
      for (const [status, n] of Object.entries(f.byStatus)) byStatus.set({ status }, n);
    });
  };
  return {
    registry,
    async text() {
      await refresh();
      return registry.metrics();
    },
    observeRequest(req, res, seconds) {
      const route = typeof res.locals.route === 'string' ? res.locals.route : 'unmatched';
      duration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    },
    rateLimited: (family) => refusals.inc({ limit: family }),
    temporalFailure: (operation) => temporalFailures.inc({ operation }),
    shadowMismatch: (route) => shadowMismatches.inc({ route }),
    shadowCompared: (route, result) => shadowReads.inc({ route, result }),
    searchAnswered: (backend) => searchAnswers.inc({ backend }),
  };
}

/**
 * GET /metrics. With METRICS_TOKEN: only with `Authorization: Bearer <token>` (401 otherwise).
 * Without it: served outside production only (a developer's loopback stack); 404 in production.
 */
