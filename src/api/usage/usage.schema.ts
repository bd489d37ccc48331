export const getUsageQuerySchema = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;
