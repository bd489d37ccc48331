import fc from 'fast-check';

// Values a careless or malicious client sends: the ones that have broken servers before
// (PostgreSQL refusing U+0000, path traversal, prototype keys, numbers past 2^53, deep nesting
// that overflows a recursive walker). Sizes are bounded so a run stays fast on a small machine.

/** Largest string generated: about the API's default body limit, so bodies on both sides of it occur. */
export const HUGE_STRING_BYTES = 1024 * 1024 + 16;

const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029', '\ufeff'];

const FIXED_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  'a%00b',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '....//....//etc/passwd',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '\\\\server\\share',
  '\ud800', // lone high surrogate
  '\udc00x', // lone low surrogate
  '\u202eevil\u202c', // right-to-left override
  'مرحبا بالعالم',
  '👩‍👩‍👧‍👦🎬🔥',
  'Z̴̡̢̛͚̦a̸̢͙l̷g̶o̴',
  "' OR 1=1 --",
  '%',
  '%%',
  '%zz',
  '%u0000',
  '\\u0000',
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  ' 5',
  '99999999999999999999999999999999',
  '-9223372036854775809',
  '9007199254740993',
  '1.5',
  'true',
  '[]',
  '{}',
];

/** Numbers past every bound a schema sets, and ones that are not plain integers. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -1, -0, 0.5, 1e-7, 2 ** 31, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 1e308, Number.MAX_VALUE, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A string of one repeated unit, from a few hundred bytes (UTF-8) to just over the body limit. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('a', '\u0000', 'é', '😀', '../', '%00', '\\'),
    fc.oneof(fc.integer({ min: 256, max: 4096 }), fc.integer({ min: 60_000, max: 70_000 }), fc.integer({ min: 900_000, max: HUGE_STRING_BYTES })),
  )
  .map(([unit, bytes]) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit))));

/** Strings that are not what any field expects. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIXED_STRINGS) },
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
);

/** An array or object nested `depth` levels deep (as JSON text, so even 100,000 levels cost little). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Any JSON value, including ones built around hostile strings and keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}),
  fc.constantFrom(JSON.parse('{"__proto__":{"polluted":true}}'), { constructor: { prototype: { polluted: true } } }),
  fc.array(hostileString, { maxLength: 4 }),
  fc.dictionary(
    hostileString.filter((s) => s.length < 100),
    hostileString,
    { maxKeys: 3 },
  ),
  fc.integer({ min: 20, max: 200 }).map((depth) => JSON.parse(deepJson(depth, 'object')) as unknown),
);

/** Request bodies that are not a JSON object: broken, truncated, wrong encoding, too deep or too big. */
export const hostileRawBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom('{', '{"name":', '{"a":1,}', "{'a':1}", 'null', '[]', '"text"', '42', 'true', '{"a":1}{"b":2}', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u0000"}', 'NaN', '{"a":NaN}'),
  // Numbers JSON can write but a double cannot hold, and prototype keys JSON.parse keeps as own fields.
  fc.constantFrom(
    '{"max_billable_seconds":123456789012345678901234567890}',
    '{"max_billable_seconds":1e400}',
    '{"max_billable_seconds":-0}',
    '{"max_billable_seconds":60.0000000000000001}',
    '{"__proto__":{"preview_only":false},"max_billable_seconds":60}',
    '{"constructor":{"prototype":{"x":1}}}',
  ),
  fc.constantFrom(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), Buffer.from([0xc3, 0x28]), Buffer.from('{"name":"\xff\xfe"}', 'latin1'), Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d])),
  fc.integer({ min: 1_000, max: 100_000 }).chain((depth) => fc.constantFrom(deepJson(depth, 'array'), deepJson(depth, 'object'))),
  fc.string({ unit: 'binary', maxLength: 200 }),
  hugeString.map((s) => JSON.stringify({ name: s })),
);

/** Percent-encodes any string, lone surrogates included (as the UTF-8 bytes a sloppy client sends). */
export function encodeAny(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return Array.from(value, (ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }
}

/** Values for a path segment: malformed, traversal, encoded NUL, unicode, very long. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    'a%00b',
    '%',
    '%zz',
    '%ff',
    '%c0%ae',
    '%u002e',
    'null',
    '0',
    '-1',
    '1e3',
    '00000000-0000-0000-0000-000000000000',
    'urn:uuid:00000000-0000-0000-0000-000000000000',
    'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
    '%E2%80%AE',
    '%F0%9F%98%80',
    '%ED%A0%80',
  ),
  hostileString.filter((s) => s.length > 0 && s.length < 3000).map(encodeAny),
  fc.integer({ min: 2_000, max: 20_000 }).map((n) => 'a'.repeat(n)),
);

/** HTTP itself cannot carry control characters in a header value: those become `x`. */
const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e]/g, 'x');

/** Header values that are not a valid key: empty-ish, wrong scheme, truncated, non-ASCII bytes. */
export const bogusCredential: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('dk_', 'dk__', 'dk_x_y', 'dk_00000000-0000-0000-0000-000000000000_secret', 'Bearer', 'null', ' ', 'dk_' + 'a'.repeat(5000), 'dk_%00_%00', 'dk_\u00e9_\u00ff'),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map(headerSafe),
);

/** Idempotency-Key values outside the printable-ASCII 1..255 rule, or right at its edge. */
export const bogusIdempotencyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(' ', 'a b', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(10_000), '\u00e9\u00e9', '\t', '%00'),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).map(headerSafe),
);

/** Content types a JSON route should refuse (or tolerate when it is still JSON). */
export const contentTypes: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/merge-patch+json',
  '*/*',
  'application/json\u00e9',
);
