// `max_billable_seconds`, the spend ceiling every paid call takes (docs/api-reference.md). The
// contract sets no upper bound: a client may say "any cost up to this" with a generous value.
// The one bound is the column that keeps a project's ceiling, a 32-bit integer; the quoted calls
// (language addition, transcript review) only compare their quote with it and charge the quote.

/** The largest ceiling: 2^31 − 1, what projects.max_billable_seconds (integer) holds. */
export const MAX_CEILING_SECONDS = 2_147_483_647;

export function spendCeilingSchema(description: string) {
  return { type: 'integer', minimum: 1, maximum: MAX_CEILING_SECONDS, description } as const;
}
