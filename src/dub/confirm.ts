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
