import { InvalidArgumentError } from 'commander';
import { isPermission, PERMISSIONS, type Permission } from '../shared/permissions';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../shared/webhook-contracts';

// Parsers for console arguments. Each refuses a malformed value while parsing, before any
// command touches the database, so a typo is a usage error and never PostgreSQL's own message.
// The ones the `dub` CLI shares live in src/shared/argument-parsers.ts.

export { locale, positiveInteger, uuid } from '../shared/argument-parsers';

// The id part of dk_<id>_<secret> (src/auth/api-key-secret.ts), as keys:create and keys:list print it.
const KEY_ID = /^[a-z0-9]{16}$/;
// Deliberately plain: enough to catch a pasted bracket or a missing domain, not RFC 5322.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
// A grant reference becomes part of a ledger reference and a workflow id: printable, no spaces.
const REFERENCE = /^[\x21-\x7e]{1,128}$/;

export function keyId(value: string): string {
  if (!KEY_ID.test(value)) throw new InvalidArgumentError('Expected a key id: 16 lower-case letters and digits, as keys:list prints it.');
  return value;
}

export function email(value: string): string {
  if (!EMAIL.test(value)) throw new InvalidArgumentError('Expected an email address like ana@example.com.');
  return value;
}

export function text(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 200) throw new InvalidArgumentError('Expected 1 to 200 characters.');
  return trimmed;
}

export function reference(value: string): string {
  if (!REFERENCE.test(value)) throw new InvalidArgumentError('Expected 1 to 128 printable characters without spaces, e.g. invoice-1042.');
  return value;
}

/** A comma list of permissions, or "all". */
export function permissions(value: string): Permission[] {
  if (value === 'all') return [...PERMISSIONS];
  const list = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = list.filter((p) => !isPermission(p));
  if (bad.length || list.length === 0) {
    throw new InvalidArgumentError(`Takes a comma list of ${PERMISSIONS.join(', ')} (or "all"); bad: ${bad.join(', ') || '(empty)'}.`);
  }
  return list as Permission[];
}

/** A comma list of webhook event types, or "all". */
export function webhookEvents(value: string): WebhookEventType[] {
  if (value === 'all') return [...WEBHOOK_EVENT_TYPES];
  const list = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = list.filter((p) => !isWebhookEventType(p));
  if (bad.length || list.length === 0) {
    throw new InvalidArgumentError(`Takes a comma list of ${WEBHOOK_EVENT_TYPES.join(', ')} (or "all"); bad: ${bad.join(', ') || '(empty)'}.`);
  }
  return [...new Set(list)] as WebhookEventType[];
}
