// The cancel and delete requests carry nothing but the project's id (docs/lifecycle.md).

export const cancelProjectBodySchema = { type: 'object', additionalProperties: false, properties: {} } as const;
export const deleteProjectQuerySchema = { type: 'object', additionalProperties: false, properties: {} } as const;
