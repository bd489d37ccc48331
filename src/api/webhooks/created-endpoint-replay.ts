import type { Db } from '../../db/create-db';
import { findEndpoint } from '../../db/webhooks';
import { openSecret } from '../../webhooks/secret-box';
import { ApiError } from '../api-error';
import type { StoredResponseCodec } from '../middleware/idempotency';
import { workspaceCaller } from '../middleware/authenticate';

// The create response holds the endpoint's secret in full, and stored responses stay in
// idempotency_keys long after the request (docs/webhooks.md, "Secrets"). So the response is
// kept with `"secret":null`, and a replay fills the secret in from the live endpoint: the same
// bytes as the first answer while the endpoint exists, and a 409 once it was deleted, whose
// secret is gone with it.

interface CreatedBody {
  data: { id: string; secret: string | null };
}

export function createdEndpointReplay(db: Db, secretKey: string): StoredResponseCodec {
  return {
    store(body) {
      const parsed = JSON.parse(body) as CreatedBody;
      parsed.data.secret = null;
      return JSON.stringify(parsed);
    },
    async replay(ctx, stored) {
      if (stored.status !== 201) return stored.body;
      const parsed = JSON.parse(stored.body) as CreatedBody;
      const caller = workspaceCaller(ctx);
      const endpoint = await findEndpoint(db, caller.workspaceId, parsed.data.id);
      if (!endpoint || endpoint.secret === null) {
        throw ApiError.conflict('webhook_endpoint_deleted', 'The webhook endpoint this Idempotency-Key created has since been deleted, and its secret with it; register a new one with a new key.');
      }
      parsed.data.secret = openSecret(secretKey, endpoint.id, endpoint.secret);
      return JSON.stringify(parsed);
    },
  };
}
