// A signal route answers 503 only when the signal never left; a Temporal call that went out and got
// no answer (deadline, cancelled) is "pending" (api/routes/intake/signals.ts deliveryUnknown).
import { status as grpcStatus } from '@grpc/grpc-js';
import type { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../api/http/errors';
import { deliveryUnknown } from '../../api/operations/decisions';
import { withTemporal } from '../../api/temporal/workflow-calls';

/** The route's mapping of a failed call, as it reaches the signal route (a connection that runs the call at once). */
async function failedWith(code: number): Promise<unknown> {
  const temporal = { client: {} as Client, connection: { withDeadline: (_d: Date, fn: () => Promise<unknown>) => fn() } as unknown as Connection };
  return withTemporal(temporal, 1000, () => Promise.reject(Object.assign(new Error('grpc'), { code }))).catch((e: unknown) => e);
}

describe('signal outcome after a failed Temporal call', () => {
  it('is unknown (pending) after a deadline or a cancel, and not sent (503) when Temporal was unreachable', async () => {
    for (const code of [grpcStatus.DEADLINE_EXCEEDED, grpcStatus.CANCELLED]) {
      const err = await failedWith(code);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('workflow_unavailable');
      expect(deliveryUnknown((err as Error).cause), `code ${code}`).toBe(true);
    }
    for (const code of [grpcStatus.UNAVAILABLE, grpcStatus.RESOURCE_EXHAUSTED]) {
      const err = await failedWith(code);
      expect((err as AppError).code).toBe('workflow_unavailable');
      expect(deliveryUnknown(err) || deliveryUnknown((err as Error).cause), `code ${code}`).toBe(false);
    }
  });

  it('is not sent (503 with Retry-After, never a 500) when the frontend refused the service\'s own token', async () => {
    for (const code of [grpcStatus.PERMISSION_DENIED, grpcStatus.UNAUTHENTICATED]) {
      const err = await failedWith(code);
      expect(err).toBeInstanceOf(AppError);
      expect([(err as AppError).code, (err as AppError).message]).toEqual(['workflow_unavailable', "The workflow service refused this service's credentials; retry shortly."]);
      expect(deliveryUnknown((err as Error).cause), `code ${code}`).toBe(false);
    }
    // Anything else is not the client's to retry: it stays the error it was.
    expect(await failedWith(grpcStatus.INVALID_ARGUMENT)).not.toBeInstanceOf(AppError);
  });
});
