import type { LanguageSegment } from '../db/language-segments';
import type { ProjectLanguage } from '../db/project-languages';
import type { Project } from '../db/projects';
import type { GlossaryEntry } from '../shared/glossary-entry';
import { videoRenderFor } from './dubbed-video';
import type { RenderDubInput } from './render-dub';
import { revisionKeyPrefix } from './storage-keys';

/** What a render is made of, as the rows say: the rest (heartbeat, transfers, progress) is the caller's. */
export type RenderBasis = Omit<RenderDubInput, 'onTick' | 'transfer' | 'onStage'>;

/**
 * The one reading of a project's and a language's rows into what a render of `revision` is made
 * from: the first dub, a re-dub and a regeneration all render through it, so a setting the
 * customer chose (the voice, the background, burned captions, the caption rules) reaches every one of them alike.
 */
export function renderInputFor(
  project: Pick<Project, 'id' | 'name' | 'background' | 'background_track_file_name' | 'caption_rules' | 'loudness' | 'source_duration_seconds' | 'source_has_video' | 'source_locale'>,
  language: Pick<ProjectLanguage, 'locale' | 'voice' | 'title' | 'video_burned_captions'>,
  render: { lines: LanguageSegment[]; revision: number; glossary: readonly GlossaryEntry[] },
): RenderBasis {
  return {
    projectId: project.id,
    locale: language.locale,
    lines: render.lines,
    glossary: render.glossary,
    voice: language.voice,
    title: language.title ?? project.name,
    background: project.background,
    backgroundTrack: project.background_track_file_name !== null,
    captionRules: project.caption_rules,
    loudness: project.loudness,
    durationSeconds: project.source_duration_seconds ?? 0,
    hasVideo: project.source_has_video ?? false,
    video: videoRenderFor(project, language),
    keyPrefix: revisionKeyPrefix(project.id, language.locale, render.revision),
  };
}
