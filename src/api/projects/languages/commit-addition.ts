import type { ChosenVoices } from '../choose-voices';
import { setLabelledVoices } from '../../../db/speakers';
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { chargeReference } from '../../../shared/ledger-references';
import { chargeCredits, InsufficientCreditsError } from '../../../db/credits';
import type { Database } from '../../../db/database';
import { hasTranscript } from '../../../db/deliverables';
import { insertLanguageAddition } from '../../../db/language-additions';
import { findProjectById, type Project, type ProjectPhase } from '../../../db/projects';
import { queueAddedLanguages } from '../../../lifecycle/language-lifecycle';
import { addLanguagesToProject } from '../../../lifecycle/project-lifecycle';
import { lockLiveProject } from '../lock-live-project';
import type { AddLanguagesBody } from './add-languages.schema';
import { quoteAddition, type AdditionQuote } from './addition-quote';

type Trx = Transaction<Database>;

export interface CommittedAddition {
  /** The language_additions row; null when nothing was added. */
  additionId: string | null;
  quote: AdditionQuote;
  chargedNowSeconds: number;
  project: Project;
}

const FINAL = ['completed', 'partially_completed', 'failed'];

/** A project that has ended goes back to dubbing; one that never got a transcript transcribes first. */
async function phaseToResume(trx: Trx, project: Project): Promise<ProjectPhase> {
  if (project.phase === 'dubbing' || project.phase === 'completed') return 'dubbing';
  return (await hasTranscript(trx, project.id)) ? 'dubbing' : 'transcribing';
}

/**
 * Adds the new locales of a request, in the caller's transaction. The project row is locked
 * first, so two additions of the same locale serialize: the second quotes it as existing and
 * charges nothing for it. Each new locale is charged through the ledger as its language's first
 * attempt (`<project>:<locale>:charge:1`), and its row records that attempt's charge, so:
 * - the language workflow's claim finds the attempt open and paid, and charges nothing more;
 * - if the language finally fails, the usual failure path refunds exactly that, once
 *   (`<project>:<locale>:refund`); a console retry is attempt 2 with its own references.
 * A locale is added to a project at most once, so these references are unique per addition.
 * The addition is recorded in language_additions, under the request's Idempotency-Key; each new
 * language gets its voice from `voices` (docs/voices.md).
 * Throws InsufficientCreditsError (having charged nothing that commits) when credits fall short.
 */
export async function commitAddition(trx: Trx, input: { projectId: string; body: AddLanguagesBody; idempotencyKey: string; voices?: ChosenVoices }): Promise<CommittedAddition> {
  const { projectId, body, idempotencyKey } = input;
  const voices = input.voices?.languages ?? {};
  const project = await lockLiveProject(trx, projectId);
  const quote = quoteAddition(project, body);
  if (quote.new_locales.length === 0 || !quote.within_limit) return { additionId: null, quote, chargedNowSeconds: 0, project };

  // The end this addition overwrites was news when it happened: its events are in the outbox.
  const ended = FINAL.includes(project.status);
  const additionId = randomUUID();
  const billable = project.billable_seconds!;
  const perLocale = billable * project.credits_per_second;
  for (const [index, locale] of quote.new_locales.entries()) {
    let charged: boolean;
    try {
      charged = await chargeCredits(trx, {
        workspaceId: project.workspace_id,
        reference: chargeReference(project.id, locale, 1),
        amount: perLocale,
        projectId: project.id,
        description: `language ${locale} added (${billable} s), addition ${additionId}`,
      });
    } catch (err) {
      // Report the whole addition against what was available before it (it all rolls back).
      if (err instanceof InsufficientCreditsError) throw new InsufficientCreditsError(quote.credits, err.available + index * perLocale);
      throw err;
    }
    // The locale was not in the project under the lock, so its first charge cannot exist.
    if (!charged) throw new Error(`ledger already holds ${chargeReference(project.id, locale, 1)}`);
  }
  await insertLanguageAddition(trx, {
    id: additionId,
    project_id: project.id,
    workspace_id: project.workspace_id,
    locales: quote.new_locales,
    billable_seconds: quote.billable_seconds,
    credits: quote.credits,
    idempotency_key: idempotencyKey,
  });
  await queueAddedLanguages(trx, { projectId: project.id, locales: quote.new_locales, chargedSeconds: billable, voices, videoBurnedCaptions: body.video?.burned_captions ?? false });
  const newLocales = new Set(quote.new_locales);
  await setLabelledVoices(trx, project.id, Object.fromEntries(Object.entries(input.voices?.speakers ?? {}).filter(([locale]) => newLocales.has(locale))));
  // New paid work on an ended project starts it again: a cancel it had ended with no longer
  // applies (a restarted project workflow settles a cancelled project at once; docs/lifecycle.md#cancel).
  await addLanguagesToProject(trx, project, { locales: quote.new_locales, chargedSeconds: quote.billable_seconds, resumePhase: ended ? await phaseToResume(trx, project) : null });
  const updated = await findProjectById(trx, project.id);
  if (!updated) throw new Error(`project ${project.id} not found`);
  return { additionId, quote, chargedNowSeconds: quote.billable_seconds, project: updated };
}
