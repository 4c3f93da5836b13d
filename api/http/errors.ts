// One error type, one table from code to status, one renderer (api/http/problem.ts). Every code
// the API can answer is here, and docs/errors.md describes each (test/unit/error-table.test.ts).
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  unauthenticated: 401,
  invalid_credential: 401,
  forbidden: 403,
  actor_not_mapped: 403,
  permission_denied: 403,
  out_of_scope: 403,
  artist_out_of_scope: 403,
  operator_required: 403,
  csrf_failed: 403,
  upload_url_invalid: 403,
  upload_url_expired: 403,
  preview_url_invalid: 403,
  not_found: 404,
  public_writes_blocked: 405,
  method_not_allowed: 405,
  invalid_transition: 409,
  upload_sealed: 409,
  posture_not_publishable: 409,
  artist_profile_missing: 409,
  artist_profile_conflict: 409,
  draft_not_publishable: 409,
  asset_taken_down: 409,
  evidence_missing: 409,
  delivery_in_progress: 409,
  claimed_by_other: 409,
  matches_not_acknowledged: 409,
  second_operator_required: 409,
  decision_refused: 409,
  classification_refused: 409,
  classification_conflict: 409,
  suggestion_mismatch: 409,
  upload_missing: 409,
  route_retired: 410,
  moved_to_portal: 410,
  webhook_ingress_closed: 410,
  media_taken_down: 410,
  preview_gone: 410,
  payload_too_large: 413,
  misdirected_request: 421,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  webhook_target_refused: 422,
  permission_not_selectable: 422,
  handoff_refused: 422,
  payload_undecodable: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  dependency_unavailable: 503,
  identity_provider_unavailable: 503,
  workflow_unavailable: 503,
  workflow_busy: 503,
  workflow_resuming: 503,
  preview_pending: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The problem statuses the API answers with (each documented in the OpenAPI components). */
export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 503;
