/**
 * What a create holds: its ceiling for every target language, at the workspace's rate. Computed
 * exactly (a ceiling may be 2^31 − 1 and a rate as large, so the product can pass 2^53, and even
 * 2^63). Credit amounts are bigint columns read as exact numbers, so no balance reaches 2^53:
 * a hold past that is sent as the largest exact number, which no balance covers (402), and the
 * refusal names the exact need.
 */
export function ceilingHold(maxBillableSeconds: number, targetLocales: number, creditsPerSecond: number): { holdAmount: number; neededCredits: bigint } {
  const neededCredits = BigInt(maxBillableSeconds) * BigInt(targetLocales) * BigInt(creditsPerSecond);
  const holdAmount = neededCredits > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(neededCredits);
  return { holdAmount, neededCredits };
}
