import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

// The TypeScript type of a request is derived from the JSON Schema that validates it, so the two
// cannot drift (docs/design.md#requests). json-schema-to-ts is a devDependency and works at the
// type level only: import it with `import type`, here and nowhere else, because the production
// images install without devDependencies.

export type { JSONSchema };

/**
 * What `S` accepts, as ajv leaves it: a property with a `default` is filled in by `useDefaults`,
 * so it is present (not optional) in the type; `nullable: true` adds `null`. (The conditional
 * keeps it unexpanded inside generic code such as validateBody, where expanding it would hit the
 * compiler's depth limit; for a concrete schema it is just FromSchema.)
 */
export type Validated<S extends JSONSchema> = S extends JSONSchema ? FromSchema<S, { keepDefaultedPropertiesOptional: false }> : never;
