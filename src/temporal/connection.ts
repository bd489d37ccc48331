import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config';

/**
 * A lazily connecting client: the API starts (and /readyz reports) even while Temporal is
 * down, and the SDK reconnects on its own when it comes back.
 */
export function createTemporalClient(config: Config): Client {
  const connection = Connection.lazy({ address: config.temporal.address });
  return new Client({ connection, namespace: config.temporal.namespace });
}
