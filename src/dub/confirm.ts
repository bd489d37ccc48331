import { createInterface } from 'node:readline/promises';
import type { DubContext } from './dub-context';

/**
 * Asks before spending: --yes accepts, a terminal is asked, and anything else (a script, a
 * pipe) is never charged without --yes.
 */
export async function confirmSpend(ctx: DubContext, question: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true;
  if (!ctx.out.tty || !process.stdin.isTTY) {
    ctx.out.line('Nothing charged. Run it again with --yes to accept this quote.');
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** What every quote of a paid call answers, whatever it pays for. */
export interface SpendQuote {
  billable_seconds: number;
  credits: number;
  within_limit: boolean;
  max_billable_seconds: number;
}

/** The rows every quote ends with: what it bills (`billable`, to say how it was counted), its credits, whether it fits the ceiling. */
export function spendRows(quote: SpendQuote, billable = `${quote.billable_seconds} s`): [string, string][] {
  return [
    ['Billable', billable],
    ['Credits', String(quote.credits)],
    ['Within ceiling', quote.within_limit ? 'yes' : `no (${quote.max_billable_seconds} s)`],
  ];
}

/** A quote over --max-seconds is refused before anything is asked or charged; `what` names it ("The retry"). */
export function refuseOverCeiling(what: string, quote: SpendQuote): void {
  if (!quote.within_limit) throw new Error(`${what} needs ${quote.billable_seconds} billable seconds, over --max-seconds ${quote.max_billable_seconds}; nothing was charged.`);
}
