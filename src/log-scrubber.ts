// What must never reach a log line, whatever field or message it hides in: API key secrets,
// webhook signing secrets, external engines' keys (a bearer token, LibreTranslate's `api_key`
// in a body or a query: docs/engines.md), and the credentials of signed URLs (ours: `signature=`; S3's SigV4:
// `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`). A signed URL stays readable
// (host, path, expiry) with its credential replaced, so a log still says which object it was.

const SECRETS: [RegExp, string][] = [
  [/\b(dk_[a-z0-9]{16}_)[A-Za-z0-9]{8,}/g, '$1[redacted]'],
  [/\bwhsec_[A-Za-z0-9_-]{8,}/g, 'whsec_[redacted]'],
  [/([?&](?:signature|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&\s"']+/gi, '$1[redacted]'],
  [/(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, '$1[redacted]'],
  [/("api_key"\s*:\s*")[^"]*/gi, '$1[redacted]'],
  [/([?&]api_key=)[^&\s"']+/gi, '$1[redacted]'],
];

/** Header and field names whose value is a credential, whatever it looks like. */
const SECRET_KEYS = /^(authorization|x-api-key|cookie|set-cookie|secret|signing_?secret|api_?key|password|token|secret_access_key|secretAccessKey)$/i;

/**
 * Every secret above contains one of these, whatever its case: a text without any (almost every
 * log string: ids, routes, statuses) is returned after one scan instead of one per pattern.
 */
const MAY_HOLD_SECRET = /dk_|whsec_|signature|x-amz-|bearer|api_key/i;

export function scrubText(text: string): string {
  return MAY_HOLD_SECRET.test(text) ? scrubTextFully(text) : text;
}

/** Every pattern over the text, without the pre-check (what the pre-check is tested against). */
export function scrubTextFully(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRETS) out = out.replace(pattern, replacement);
  return out;
}

/** A copy of `value` with every secret string replaced; objects are walked up to a depth. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_KEYS.test(key) && item != null ? '[redacted]' : scrub(item, depth + 1);
  return out;
}
