import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { countLanguageLines, loadSourceTranscriptState } from '../db/source-speech';

/**
 * The last check before a language is published: zero lines while its source has speech (or its
 * transcript was never recorded, so nobody knows) would publish silence as a completed dub and
 * keep the charge. That is the platform's failure (`engine_failed`): the language fails and is
 * refunded, and its retry is free. A source recognized as silent (no segments) may publish its
 * background alone.
 */
export async function refuseSilentDub(db: Db, projectId: string, locale: string): Promise<void> {
  if ((await countLanguageLines(db, projectId, locale)) > 0) return;
  const source = await loadSourceTranscriptState(db, projectId);
  if (source && source.recorded && source.segments === 0) return;
  const why = source?.recorded ? `its source has ${source.segments} segments of speech` : 'the source transcript was never recorded';
  throw ApplicationFailure.nonRetryable(`${locale} planned no lines although ${why}: not publishing a silent dub`, 'engine_failed');
}
