import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { listLanguageSegments, writeLanguageLines, type LanguageSegmentStatus, type LineText } from '../db/language-segments';
import { pinnedGlossaryEntries } from '../db/glossaries';
import { assignMissingSpeakerVoices } from '../db/speakers';
import { findLanguage } from '../db/project-languages';
import { listSourceSegments, newSegmentId, type Cue } from '../db/source-segments';
import type { Engines } from '../engines';
import type { EngineCapabilities } from '../engines/capabilities';
import { SOURCE_LOCALE_ENGLISH } from '../engines/locale-catalog';
import { translateWithGlossary } from '../engines/translate/glossary-translation';
import { noUntranslatedWords, type UntranslatedWords } from '../engines/translate/translator';
import { routeFrom } from '../shared/translation-route';
import { mostOverlappedSource, planLines } from '../shared/line-plan';
import { classifyingEngineErrors } from './classify-engine-error';
import { requireProject } from './require-project';

// A language's lines brought up to date with the source segments (docs/editing.md), by the rules
// of src/shared/line-plan.ts: the first translation of a language, a regeneration and the free
// re-dub from a verified transcript all go through here. Planned outside any transaction (the
// translator is slow); the caller writes the change (writeLanguageLines) in its own transaction.

/** The route this worker translates `sourceLocale` into `locale` by (English unless told). */
export function translationModes(capabilities: EngineCapabilities, locale: string, sourceLocale = SOURCE_LOCALE_ENGLISH): string[] {
  const entry = capabilities.locales.find((l) => l.locale === locale);
  const route = entry ? routeFrom(entry, sourceLocale) : null;
  if (!route) throw ApplicationFailure.nonRetryable(`no installed translation route from ${sourceLocale} to ${locale}`, 'engine_failed');
  return route;
}

export interface LineChange {
  remove: string[];
  update: LineText[];
  insert: LineText[];
}

export interface PlannedLines {
  change: LineChange;
  /** `extraTexts` translated in the same batch (as given when the language runs no translation). */
  extras: string[];
  /** Lines the language will have. */
  lines: number;
  /** Texts the translator was given for lines. */
  translatedLines: number;
  /** What the translator left untranslated in this batch (issue 29: reported per language). */
  untranslated: UntranslatedWords;
}

export interface PlanLinesInput {
  projectId: string;
  locale: string;
  /**
   * What a machine-translated line is until the revision that speaks it is published: `current`
   * for a language's first dub, `stale` for a re-render, which publishing settles.
   */
  translatedStatus: Extract<LanguageSegmentStatus, 'current' | 'stale'>;
  /** Other texts to translate in the same batch (a title, a description). */
  extraTexts?: string[];
  /** An editor's regeneration: more small translations of this route are likely soon (TranslateOptions.stayWarm). */
  stayWarm?: boolean;
  onTick: () => void;
}

export async function planLanguageLines({ db, engines, capabilities }: { db: Db; engines: Engines; capabilities: EngineCapabilities }, input: PlanLinesInput): Promise<PlannedLines> {
  const language = await findLanguage(db, input.projectId, input.locale);
  if (!language) throw new Error(`project ${input.projectId} has no language ${input.locale}`);
  const [lines, sources, project, glossary] = await Promise.all([
    listLanguageSegments(db, input.projectId, input.locale),
    listSourceSegments(db, input.projectId),
    requireProject(db, input.projectId),
    // The pinned version's terms are enforced in every translation (docs/glossaries.md#enforcement).
    pinnedGlossaryEntries(db, input.projectId),
  ]);
  const supplied = language.supplied_translation;
  const extraTexts = input.extraTexts ?? [];

  // A supplied translation is taken as given: its cues are the lines, and nothing is translated.
  if (supplied && lines.length === 0) {
    const insert = supplied.map((cue: Cue): LineText => ({
      id: newSegmentId('lseg'),
      source_segment_id: mostOverlappedSource(cue, sources)?.id ?? null,
      start_seconds: cue.start_seconds,
      end_seconds: cue.end_seconds,
      text: cue.text,
      status: 'edited',
    }));
    return { change: { remove: [], update: [], insert }, extras: extraTexts, lines: insert.length, translatedLines: 0, untranslated: noUntranslatedWords() };
  }

  const plan = planLines(lines, sources, { suppliedTranslation: supplied !== null });
  const sourceTexts = [...plan.retranslate.map((r) => r.source.text), ...plan.create.map((s) => s.text)];
  // A supplied language keeps its title and description as given too.
  const extras = supplied ? [] : extraTexts;
  const texts = [...sourceTexts, ...extras];
  let untranslated = noUntranslatedWords();
  const translated =
    texts.length === 0
      ? []
      : await classifyingEngineErrors(() =>
          translateWithGlossary(engines.translator, texts, translationModes(capabilities, input.locale, project.source_locale), glossary, input.locale, {
            onTick: input.onTick,
            stayWarm: input.stayWarm,
            onUntranslated: (u) => (untranslated = u),
          }),
        );
  const text = (i: number) => translated[i] ?? '';
  const update = plan.retranslate.map(({ line, source }, i): LineText => ({
    id: line.id,
    source_segment_id: source.id,
    start_seconds: source.start_seconds,
    end_seconds: source.end_seconds,
    text: text(i),
    status: input.translatedStatus,
  }));
  const insert = plan.create.map((source, i): LineText => ({
    id: newSegmentId('lseg'),
    source_segment_id: source.id,
    start_seconds: source.start_seconds,
    end_seconds: source.end_seconds,
    text: text(plan.retranslate.length + i),
    status: input.translatedStatus,
  }));
  return {
    change: { remove: plan.remove.map((l) => l.id), update, insert },
    extras: supplied ? extraTexts : extraTexts.map((given, i) => translated[sourceTexts.length + i] || given),
    lines: plan.keep.length + update.length + insert.length,
    translatedLines: sourceTexts.length,
    untranslated,
  };
}

/**
 * Writes a planned change in the caller's transaction, and gives every speaker without a voice in
 * this language one (docs/speakers.md#voices), so the render that follows speaks each speaker's
 * lines with their own voice.
 */
export async function writePlannedLines(trx: Db, capabilities: EngineCapabilities, projectId: string, locale: string, change: LineChange): Promise<void> {
  await writeLanguageLines(trx, projectId, locale, change);
  const language = await findLanguage(trx, projectId, locale);
  const offered = capabilities.locales.find((l) => l.locale === locale)?.voices ?? [];
  await assignMissingSpeakerVoices(trx, projectId, locale, offered, language?.voice ?? null);
}
