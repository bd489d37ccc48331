import fc from 'fast-check';
import { hostileNumber, hostileString, hostileValue } from './hostile-values';

// Arbitraries derived from the request schemas the routes validate with (the very objects in
// each `<resource>.openapi.ts`), so a field or route added later is fuzzed without editing this.
// Only the keywords those schemas use are understood: type, enum, const, min/max(Length|Items),
// pattern, format uuid, required, properties, additionalProperties, items, uniqueItems, oneOf.

export interface JsonSchema {
  type?: string | string[];
  enum?: readonly unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  format?: string;
  required?: readonly string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean;
  items?: JsonSchema;
  oneOf?: readonly JsonSchema[];
}

/** Plausible valid values by property name (locales, the tenant's own ids…), mixed into strings. */
export type Hints = Record<string, readonly unknown[]>;

/** Longest string or array generated for a "valid" value, whatever the schema allows. */
const VALID_CAP = 40;

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, VALID_CAP);
  if (schema.format === 'uuid') return fc.uuid();
  const within = (s: string) => s.length >= min && s.length <= max;
  if (schema.pattern) {
    const regex = new RegExp(schema.pattern, 'u');
    try {
      return fc.stringMatching(regex, { size: 'small' }).filter(within);
    } catch {
      return fc.string({ minLength: min, maxLength: Math.min(max, VALID_CAP) }).filter((s) => regex.test(s));
    }
  }
  const boundary = fc.constant('x'.repeat(max));
  // Within the schema, yet what storage chokes on: NUL (PostgreSQL refuses it), other control
  // characters, a lone surrogate, bidi overrides, astral characters.
  const nasty = fc.string({ unit: fc.constantFrom('\u0000', '\u0007', '\u001b', '\ud800', '\u202e', '😀', 'é', 'a'), minLength: Math.max(min, 1), maxLength: Math.max(1, Math.min(max, 12)) });
  return fc.oneof({ weight: 5, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, VALID_CAP)) }) }, { weight: 1, arbitrary: boundary }, { weight: 1, arbitrary: nasty });
}

/** The schema a value of a `oneOf` parent must meet: the parent's properties plus one branch's. */
export function branches(schema: JsonSchema): JsonSchema[] {
  if (!schema.oneOf) return [schema];
  return schema.oneOf.map((branch) => ({
    ...schema,
    ...branch,
    oneOf: undefined,
    type: 'object',
    properties: { ...schema.properties, ...branch.properties },
    required: [...new Set([...(schema.required ?? []), ...(branch.required ?? [])])],
  }));
}

const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type) ?? (schema.properties || schema.oneOf ? 'object' : undefined);

/** A value the schema accepts (hints permitting: a hinted value is plausible, not guaranteed). */
export function validValue(schema: JsonSchema, hints: Hints = {}, name = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.oneOf) return fc.oneof(...branches(schema).map((b) => validValue(b, hints, name)));
  const hinted = hints[name];
  switch (typeOf(schema)) {
    case 'string': {
      const generic = stringArbitrary(schema);
      return hinted?.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: generic }) : generic;
    }
    case 'integer': {
      const generic = fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
      return hinted?.length ? fc.oneof(fc.constantFrom(...hinted), generic) : generic;
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = validValue(schema.items ?? {}, hints, name);
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) };
      return schema.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, validValue(child, hints, key)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value just outside the schema: wrong type, one past a bound, not in the enum, an empty string. */
export function offSchemaValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [hostileValue, fc.constantFrom(null, true, 'text', 17, 1.5, [], {})];
  if (schema.enum || schema.const !== undefined) options.push(fc.constantFrom('not-a-listed-value', 'AUDIO', ''));
  if (schema.maxLength !== undefined) options.push(fc.constant('y'.repeat(schema.maxLength + 1)));
  if (schema.minLength) options.push(fc.constant(''));
  if (schema.pattern) options.push(fc.constantFrom('../x', 'a/b', 'a\\b', '\u0000', ' '));
  if (schema.maximum !== undefined) options.push(fc.constantFrom(schema.maximum + 1, schema.maximum + 0.5, 2 ** 53 + 2));
  if (schema.minimum !== undefined) options.push(fc.constantFrom(schema.minimum - 1, -(2 ** 53) - 2, schema.minimum + 0.5));
  if (schema.maxItems !== undefined && schema.maxItems < 100) options.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, (_, i) => `v${i}`)));
  if (schema.minItems) options.push(fc.constant([]));
  return fc.oneof(...options);
}

/** The branch of a `oneOf` a value was generated from, or the schema itself. */
function resolve(schema: JsonSchema, value: unknown): JsonSchema {
  const all = branches(schema);
  if (all.length === 1) return all[0]!;
  const tag = (value as Record<string, unknown> | null)?.type;
  return all.find((b) => b.properties?.type?.const === tag) ?? all[0]!;
}

/** Changes one thing in a valid value so the schema no longer holds (or barely does). */
function mutate(schema: JsonSchema, value: unknown): fc.Arbitrary<unknown> {
  const effective = resolve(schema, value);
  if (value && typeof value === 'object' && !Array.isArray(value) && effective.properties) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(effective.properties);
    const present = Object.keys(record);
    const options: fc.Arbitrary<unknown>[] = [fc.tuple(fc.constantFrom('unknown_field', '__proto__', 'constructor', 'Name', 'name ', ''), hostileValue).map(([key, v]) => ({ ...record, [key]: v }))];
    if (keys.length) options.push(fc.constantFrom(...keys).chain((key) => offSchemaValue(effective.properties![key]!).map((v) => ({ ...record, [key]: v }))));
    if (present.length) {
      options.push(fc.constantFrom(...present).map((key) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key))));
      options.push(fc.constantFrom(...present).chain((key) => mutate(effective.properties![key] ?? {}, record[key]).map((v) => ({ ...record, [key]: v }))));
    }
    return fc.oneof(...options);
  }
  if (Array.isArray(value) && effective.items) {
    const options: fc.Arbitrary<unknown>[] = [offSchemaValue(effective)];
    if (value.length) {
      options.push(fc.integer({ min: 0, max: value.length - 1 }).chain((i) => mutate(effective.items!, value[i]).map((v) => value.map((old, j) => (j === i ? v : old)))));
      if (effective.uniqueItems) options.push(fc.constant([...value, value[0]]));
    }
    return fc.oneof(...options);
  }
  return offSchemaValue(effective);
}

/** A valid value with one thing wrong: a missing required field, an unknown one, a bad value. */
export function nearValidValue(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  return validValue(schema, hints).chain((value) => mutate(schema, value));
}

/** An object whose every field (or the whole value) is hostile, or whose keys are. */
export function hostileObject(schema: JsonSchema): fc.Arbitrary<unknown> {
  const keys = Object.keys(branches(schema).reduce<Record<string, unknown>>((all, b) => ({ ...all, ...b.properties }), {}));
  const fields = keys.length ? fc.dictionary(fc.constantFrom(...keys), fc.oneof(hostileValue, hostileString, hostileNumber), { maxKeys: keys.length }) : fc.constant({});
  return fc.oneof(
    fields,
    hostileValue,
    fc.dictionary(
      hostileString.filter((s) => s.length < 200),
      hostileValue,
      { maxKeys: 3 },
    ),
  );
}

/** Valid, near-valid and hostile, in that rough proportion. */
export function schemaValue(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validValue(schema, hints) }, { weight: 4, arbitrary: nearValidValue(schema, hints) }, { weight: 2, arbitrary: hostileObject(schema) });
}
