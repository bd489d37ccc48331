import type { Deliverable } from '../db/deliverables';
import type { Project } from '../db/projects';
import type { ViewSpeaker } from '../db/project-view-query';
import type { ProjectLanguageSummary as ProjectLanguage } from '../db/project-languages';
import { retryPriceFor } from '../shared/retry-policy';
import { languageProgress, projectProgress } from './progress';
import { rangeOf } from '../shared/source-range';

// The public shape of a project, as the API answers it and webhook events carry it. Create, get and list
// all use these functions, so the three can never disagree about a field.

export interface DeliverableRef {
  locale: string;
  type: Deliverable['type'];
  format: string;
}

export interface PresentOptions {
  publicBaseUrl: string;
  languages: ProjectLanguage[];
  deliverables?: DeliverableRef[];
  uploadProgress?: { received: number; total: number };
  /** The project's speakers with their voices (docs/speakers.md); none before its transcript is written. */
  speakers?: readonly ViewSpeaker[];
  /** The transfer block, present only while awaiting the upload and when asked for. */
  transfer?: Record<string, unknown>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const failure = (code: string | null, message: string | null) => (code ? { code, message: message ?? code } : null);

export function downloadUrl(publicBaseUrl: string, projectId: string, ref: DeliverableRef): string {
  const query = new URLSearchParams({ locale: ref.locale, type: ref.type });
  if (ref.type !== 'thumbnail') query.set('format', ref.format);
  return `${publicBaseUrl}/v1/dubbing/projects/${projectId}/download?${query.toString()}`;
}

function presentSource(project: Project) {
  const base = { type: project.source_type, duration_seconds: project.source_duration_seconds };
  return project.source_type === 'youtube'
    ? { ...base, url: project.source_url, youtube_video_id: project.youtube_video_id }
    : { ...base, file_name: project.source_file_name, size_bytes: project.source_size_bytes };
}

export function presentUsage(project: Project) {
  return {
    max_billable_seconds: project.max_billable_seconds,
    billable_seconds: project.billable_seconds,
    charged_seconds: project.charged_seconds,
    refunded_seconds: project.refunded_seconds,
    state: project.usage_state,
  };
}

function presentLanguage(project: Project, language: ProjectLanguage, options: PresentOptions) {
  // Files appear the moment the language is completed, never before.
  const deliverables =
    language.status === 'completed'
      ? (options.deliverables ?? []).filter((d) => d.locale === language.locale).map((d) => ({ type: d.type, format: d.format, download_url: downloadUrl(options.publicBaseUrl, project.id, d) }))
      : [];
  return {
    locale: language.locale,
    status: language.status,
    progress: languageProgress(language),
    publishing: { title: language.title, description: language.description },
    deliverables,
    // 1 when first dubbed; + 1 each time a verified transcript re-dubs it (new files, same URLs).
    revision: language.revision,
    // The voice its renders speak with (docs/voices.md); null for a language from before voices.
    voice: language.voice,
    speaker_voices: (options.speakers ?? []).flatMap((speaker) => {
      const chosen = speaker.voices[language.locale];
      return chosen ? [{ speaker_id: speaker.id, label: speaker.label, voice: chosen.voice, variant: chosen.variant, chosen_by: chosen.chosen_by }] : [];
    }),
    // `retry`: what POST …/languages/{locale}/retry would cost (docs/money.md#retrying-a-failed-language).
    failure: language.failure_code ? { ...failure(language.failure_code, language.failure_message)!, retry: retryPriceFor(language.failure_code) } : null,
    // goodwill_seconds: delivered free by an operator's goodwill retry (docs/money.md#retrying-a-failed-language).
    usage: { charged_seconds: language.charged_seconds, refunded_seconds: language.refunded_seconds, goodwill_seconds: language.goodwill_seconds },
    alignment: { drift_seconds: language.drift_seconds },
    // Counted when the captions were published (docs/captions.md#qc); GET …/qc names each breach.
    caption_qc: { preset: project.caption_rules, breaches: language.caption_breaches },
    // Totals stored when the revision was published (docs/editing.md#sync-report); GET …/segments has each line's.
    sync: language.sync_report,
    // The delivered mix as measured when published (docs/audio.md#report); null before a render measured it.
    loudness: language.loudness_report,
    // What the language's video deliverable shows (docs/video.md).
    video: { burned_captions: language.video_burned_captions },
    created_at: iso(language.created_at),
    completed_at: iso(language.completed_at),
  };
}

export function presentProject(project: Project, options: PresentOptions) {
  return {
    id: project.id,
    name: project.name,
    external_id: project.external_id,
    status: project.status,
    source: presentSource(project),
    source_locale: project.source_locale,
    target_locales: project.target_locales,
    usage: presentUsage(project),
    progress: projectProgress(project, options.languages, options.uploadProgress),
    transcript_review: {
      requested: project.transcript_review_status !== 'not_requested',
      status: project.transcript_review_status,
      requested_at: iso(project.transcript_review_requested_at),
      verified_at: iso(project.transcript_review_verified_at),
    },
    publishing: { title: project.title ?? project.name, description: project.description ?? '' },
    background: project.background,
    // The customer's music-and-effects track, played under the dub instead of the original (docs/background.md#your-own-music-and-effects-track).
    background_track: project.background_track_file_name !== null ? { file_name: project.background_track_file_name, size_bytes: project.background_track_size_bytes } : null,
    caption_rules: project.caption_rules,
    loudness: project.loudness,
    languages: options.languages.map((l) => presentLanguage(project, l, options)),
    speakers: { num_speakers: project.num_speakers, items: (options.speakers ?? []).map((speaker) => ({ id: speaker.id, label: speaker.label })) },
    // The glossary version its translations and voices apply (docs/glossaries.md#pinning).
    glossary: project.glossary_id !== null && project.glossary_version !== null ? { id: project.glossary_id, version: project.glossary_version } : null,
    // The create's video choice, which its target languages take (docs/video.md).
    video: { burned_captions: project.video_burned_captions },
    // A preview dubs only its range of the source, timed from the range's start (docs/previews.md).
    range: rangeOf(project),
    preview: rangeOf(project) !== null,
    failure: failure(project.failure_code, project.failure_message),
    created_at: iso(project.created_at),
    updated_at: iso(project.updated_at),
    ...(options.transfer ? { transfer: options.transfer } : {}),
  };
}

export function presentProjectListItem(project: Project, languages: ProjectLanguage[], uploadProgress?: { received: number | null; total: number }) {
  return {
    id: project.id,
    name: project.name,
    external_id: project.external_id,
    status: project.status,
    progress: projectProgress(project, languages, uploadProgress),
    source_locale: project.source_locale,
    target_locales: project.target_locales,
    usage: presentUsage(project),
    created_at: iso(project.created_at),
  };
}
