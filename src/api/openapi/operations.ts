import { captionsOperations } from '../captions/captions.openapi';
import { docsOperations } from '../docs/docs.openapi';
import { editorOperations } from '../editor/editor.openapi';
import { filesOperations } from '../files/files.openapi';
import { healthOperations } from '../health/health.openapi';
import { localesOperations } from '../locales/locales.openapi';
import { voicesOperations } from '../voices/voices.openapi';
import { notesOperations } from '../notes/notes.openapi';
import { lifecycleOperations } from '../projects/lifecycle.openapi';
import { projectsOperations } from '../projects/projects.openapi';
import { regenerationsOperations } from '../regenerations/regenerations.openapi';
import { reviewersOperations } from '../reviewers/reviewers.openapi';
import { transcriptsOperations } from '../transcripts/transcripts.openapi';
import { speakersOperations } from '../speakers/speakers.openapi';
import { glossariesOperations } from '../glossaries/glossaries.openapi';
import { uploadPartsOperations } from '../uploads/upload-parts.openapi';
import { usageOperations } from '../usage/usage.openapi';
import { webhooksOperations } from '../webhooks/webhooks.openapi';
import { youtubeOperations } from '../youtube/youtube.openapi';
import type { Operation } from './operation';

// Every resource's operations, in the order the reference page lists them. A new resource adds
// its `<resource>.openapi.ts` here, one line; the contract tests fail until it does.

interface Resource {
  operations: Operation[];
  /** The API serves these only on the local storage driver (app.ts); on s3 the store does. */
  localStorageOnly?: boolean;
}

const RESOURCES: Resource[] = [
  { operations: projectsOperations },
  { operations: lifecycleOperations },
  { operations: regenerationsOperations },
  { operations: transcriptsOperations },
  { operations: speakersOperations },
  { operations: glossariesOperations },
  { operations: captionsOperations },
  { operations: reviewersOperations },
  { operations: youtubeOperations },
  { operations: localesOperations },
  { operations: voicesOperations },
  { operations: usageOperations },
  { operations: notesOperations },
  { operations: webhooksOperations },
  { operations: uploadPartsOperations, localStorageOnly: true },
  { operations: filesOperations, localStorageOnly: true },
  { operations: healthOperations },
  { operations: docsOperations },
  { operations: editorOperations },
];

export function operationsFor(storageDriver: 'local' | 's3'): Operation[] {
  return RESOURCES.filter((r) => storageDriver === 'local' || !r.localStorageOnly).flatMap((r) => r.operations);
}
