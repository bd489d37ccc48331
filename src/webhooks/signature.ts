import { createHmac } from 'node:crypto';

// Deliveries are signed like Stripe's: `Dubbing-Signature: t=<unix seconds>,v1=<hex>`, where the
// hex is HMAC-SHA256 with the endpoint's secret over `<t>.<raw body>`. The timestamp is signed
// too, so a receiver can refuse old replays; docs/webhooks.md has the receiver's side.

export const SIGNATURE_HEADER = 'Dubbing-Signature';

export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}
