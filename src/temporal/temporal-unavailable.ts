import { isGrpcServiceError, ServiceError, type ConnectionLike } from '@temporalio/client';

// While Temporal is unreachable the API answers 503 with Retry-After, promptly: every API-side
// call gets a deadline (without one the SDK retries for ~20 s), and the resulting gRPC
// UNAVAILABLE / DEADLINE_EXCEEDED becomes this error, which the error middleware maps.

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

export class TemporalUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Temporal is unreachable', { cause });
    this.name = 'TemporalUnavailableError';
  }
}

export function isTemporalUnreachable(err: unknown): boolean {
  const cause = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(cause) && (cause.code === GRPC_UNAVAILABLE || cause.code === GRPC_DEADLINE_EXCEEDED);
}

/** Runs one Temporal call with a deadline; an unreachable server becomes TemporalUnavailableError. */
export async function withTemporalDeadline<T>(connection: ConnectionLike, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  try {
    return await connection.withDeadline(Date.now() + timeoutMs, call);
  } catch (err) {
    if (isTemporalUnreachable(err)) throw new TemporalUnavailableError(err);
    throw err;
  }
}
