// The unique ledger reference of each step that moves a language's credits. The API (a language
// added and charged at once) and the worker (a retry's charge, a refund) name the same step the
// same way, so a step repeated anywhere is written once (docs/design.md#money).

export const chargeReference = (projectId: string, locale: string, attempt: number) => `${projectId}:${locale}:charge:${attempt}`;

/** Attempt 1 keeps the reference it always had, so languages refunded before attempts existed stay refunded once. */
export const refundReference = (projectId: string, locale: string, attempt: number) => (attempt === 1 ? `${projectId}:${locale}:refund` : `${projectId}:${locale}:refund:${attempt}`);

/** The charge of one paid regeneration of a language's changed lines (docs/editing.md#regenerate). */
export const regenerationChargeReference = (projectId: string, regenerationId: string) => `${projectId}:regen:${regenerationId}`;

/** Its refund, once, if the regeneration fails. */
export const regenerationRefundReference = (projectId: string, regenerationId: string) => `${projectId}:regen:${regenerationId}:refund`;
