import type { Client, Connection } from '@temporalio/client';
import type { ApiConfig } from '../lib/config';
import type { Sql } from '../lib/db';
import type { IdentityProvider } from '../lib/identity';
import type { DecisionSigner } from '../lib/intake/decision-proof';
import type { LocalSigningKey } from '../lib/identity/local-keys';
import type { Logger } from '../lib/logger';
import type { ObjectStore } from '../lib/storage/types';
import type { SecretBox } from '../lib/webhooks/secret-box';
import type { ApiMetrics } from './http/metrics';
import type { RateLimits } from './http/rate-limit';
import type { CutoverReads } from '../lib/cutover/reads';
import type { SearchEngineRuntime } from '../lib/search-engine/runtime';

/** Everything the HTTP app needs, built by api/main.ts (or by a test). */
export interface AppDeps {
  cfg: ApiConfig;
  sql: Sql;
  temporal: { client: Client; connection: Connection };
  store: ObjectStore;
  /** Wakes signal routes when the workflow writes a transition (LISTEN/NOTIFY). */
  identity: IdentityProvider;
  /** Local driver only: the key whose public half is served as the JWKS. */
  localSigningKey: LocalSigningKey | undefined;
  log: Logger;
  /** Origin clients use to reach us, e.g. http://127.0.0.1:3000 (no trailing slash). */
  publicBaseUrl: string;
  uploadSigningSecret: string;
  /** Seals the partner portal's docs handoffs (PORTAL_HANDOFF_KEY, or generated into DATA_DIR). */
  portalHandoffKey: Uint8Array;
  /** Signs operators' decisions (DECISION_SIGNING_KEY); the worker verifies them with the public half. */
  decisionSigner: DecisionSigner;
  /** Seals webhook signing secrets before they are stored (WEBHOOK_SECRET_KEY). */
  webhookSecrets: SecretBox;
  version: string;
  startedAt: number;
  metrics: ApiMetrics;
  /** Absent when RATE_LIMITS_ENABLED is false. */
  rateLimits: RateLimits | undefined;
  /** The cutover stage and the read-only legacy store (lib/cutover/reads.ts). */
  cutover: CutoverReads;
  /** SEARCH_BACKEND=opensearch: the engine /search reads first (PostgreSQL behind it); absent: PostgreSQL only. */
  searchEngine?: SearchEngineRuntime | undefined;
}
