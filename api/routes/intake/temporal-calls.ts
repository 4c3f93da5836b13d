// Every Express -> Temporal call has a deadline; "unreachable" and "not found" map to HTTP here, once.
import { WorkflowNotFoundError, type Client, type Connection } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';
import { AppError } from '../../http/errors';

const UNAVAILABLE_CODES = new Set<number>([grpcStatus.UNAVAILABLE, grpcStatus.DEADLINE_EXCEEDED, grpcStatus.CANCELLED, grpcStatus.RESOURCE_EXHAUSTED]);

export async function withTemporal<T>(temporal: { client: Client; connection: Connection }, deadlineMs: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await temporal.connection.withDeadline(new Date(Date.now() + deadlineMs), fn);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof WorkflowNotFoundError) throw new AppError('not_found', 'No such submission.');
    const e = err as { code?: number; cause?: { code?: number } };
    const code = e.code ?? e.cause?.code;
    if (code !== undefined && UNAVAILABLE_CODES.has(code)) {
      throw new AppError('workflow_unavailable', 'The workflow service is unreachable; retry shortly.', { headers: { 'Retry-After': '5' } });
    }
    throw err;
  }
}
