/** billable_seconds is a 32-bit column; nothing near this is dubbable (sources over 24 h are refused). */
export const MAX_BILLABLE_SECONDS = 2_147_483_647;

/** Whole seconds, rounded up, clamped to the column: what a source of this duration bills. */
export const billableSecondsFor = (durationSeconds: number): number => Math.min(MAX_BILLABLE_SECONDS, Math.max(1, Math.ceil(durationSeconds - 1e-9)));
