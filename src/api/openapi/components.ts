import { errorBodySchema } from './error-schema';
import { languageSegmentSchema, sourceSegmentSchema } from '../transcripts/transcripts.responses';
import { languageSchema, progressSchema, projectListItemSchema, projectReviewStateSchema, projectSchema, projectUsageSchema, transferSchema } from './project-schemas';

/**
 * Schemas the document names under components.schemas. The builder replaces every occurrence of
 * one of these very objects (by identity, not by shape) with a $ref, so each is written out once.
 */
export const NAMED_SCHEMAS: Record<string, object> = {
  Error: errorBodySchema,
  Project: projectSchema,
  ProjectListItem: projectListItemSchema,
  ProjectReviewState: projectReviewStateSchema,
  ProjectUsage: projectUsageSchema,
  Language: languageSchema,
  Progress: progressSchema,
  Transfer: transferSchema,
  SourceSegment: sourceSegmentSchema,
  LanguageSegment: languageSegmentSchema,
};
