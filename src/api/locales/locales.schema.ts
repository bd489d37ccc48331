export const listLocalesQuerySchema = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;
