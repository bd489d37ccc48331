import type { LanguageSegment } from '../../db/language-segments';
import type { Project } from '../../db/projects';
import { sourceKeys } from '../../shared/source-keys';
import { deliverableFileName } from '../../storage/download-links';
import type { AppDeps } from '../app-deps';

// The audio the editor plays (docs/editing.md#the-editor): the source's speech, segment by
// segment, and each line's dubbed clip. Short-lived signed links (SIGNED_URL_TTL_SECONDS), as
// downloads are (docs/design.md#downloads): the local driver's own file route, or a presigned
// object-store URL; both answer Range requests, so a player can seek in a long source.

type Deps = Pick<AppDeps, 'blobStore' | 'downloadLinks' | 'config'>;

/** The source's speech, or null until the project's audio is extracted (after its upload is validated and charged). */
export async function sourceAudioUrl(deps: Deps, project: Pick<Project, 'id' | 'name'>): Promise<string | null> {
  const key = sourceKeys.speech(project.id);
  if (!(await deps.blobStore.stat(key))) return null;
  return deps.downloadLinks.urlFor(key, { fileName: deliverableFileName(project.name, 'source', 'wav'), ttlSeconds: deps.config.storage.urlTtlSeconds });
}

/** The clip the published revision plays for a line (its `rendered_text`), or null when it plays none. */
export async function clipUrl(deps: Deps, project: Pick<Project, 'name'>, line: Pick<LanguageSegment, 'id' | 'locale' | 'clip_key'>): Promise<string | null> {
  if (!line.clip_key) return null;
  return deps.downloadLinks.urlFor(line.clip_key, { fileName: deliverableFileName(project.name, `${line.locale}.${line.id}`, 'wav'), ttlSeconds: deps.config.storage.urlTtlSeconds });
}
