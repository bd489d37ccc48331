import { Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { findRunningRegeneration } from '../db/language-regenerations';
import { claimRender } from '../lifecycle/render-claims';
import { lockLanguageRevision, readLanguageRevision } from '../db/project-languages';
import { loadCurrentTranscript } from '../db/transcripts';

// The start of a re-dub from the verified transcript (docs/editing.md#revisions): under the
// language's lock, is it still due, and if so its revision is claimed and the re-dub marked in
// flight, in one transaction, so an edit or a regeneration commits before it (and the re-dub
// reads it) or waits for it (409). A regeneration already running is waited for, not raced: it
// publishes (or fails) first, then the re-dub claims the revision after it.

/** How often a re-dub looks again whether the language's regeneration has ended. */
const REGENERATION_POLL_MS = 1000;

export type RedubClaim =
  /** Published from the verified transcript already, no longer completed, or no verified transcript: nothing to do. */
  | { kind: 'not_due'; revision: number }
  /** The revision this re-dub renders and publishes. */
  | { kind: 'claimed'; revision: number };

export async function claimRedub(db: Db, step: { projectId: string; locale: string }, heartbeat: () => void): Promise<RedubClaim> {
  for (;;) {
    const claim = await db.transaction().execute(async (trx): Promise<RedubClaim | 'regenerating'> => {
      await lockLanguageRevision(trx, step.projectId, step.locale);
      const language = await readLanguageRevision(trx, step.projectId, step.locale);
      if (language.status !== 'completed' || language.transcript_kind === 'verified') return { kind: 'not_due', revision: language.revision };
      if ((await loadCurrentTranscript(trx, step.projectId)).kind !== 'verified') return { kind: 'not_due', revision: language.revision };
      if (await findRunningRegeneration(trx, step.projectId, step.locale)) return 'regenerating';
      return { kind: 'claimed', revision: await claimRender(trx, step, { redub: true }) };
    });
    if (claim !== 'regenerating') return claim;
    heartbeat();
    await Context.current().sleep(REGENERATION_POLL_MS);
  }
}
