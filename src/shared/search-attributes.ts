import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';

// Registered on the dev server by scripts/lib/temporal-dev-server.ts, in docker-compose, and on
// any other server by `npm run console -- temporal:setup`, so operators can filter the Temporal
// Web UI by project, workspace and language.
export const PROJECT_ID = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
export const WORKSPACE_ID = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const LOCALE = defineSearchAttributeKey('Locale', SearchAttributeType.KEYWORD);
// Upserted by the workflows as they move, so the Web UI and `temporal workflow list --query`
// tell trouble apart: a project that ended `failed` is a Completed workflow (its money settled),
// and only `ProjectStatus = "failed"` finds it. FailureCode is the project's or language's
// `failure.code` (invalid_media, engine_failed, insufficient_credits...).
export const PROJECT_STATUS = defineSearchAttributeKey('ProjectStatus', SearchAttributeType.KEYWORD);
export const LANGUAGE_STATUS = defineSearchAttributeKey('LanguageStatus', SearchAttributeType.KEYWORD);
export const FAILURE_CODE = defineSearchAttributeKey('FailureCode', SearchAttributeType.KEYWORD);

/** Every attribute the workflows set: each must exist in the namespace before a workflow starts. */
export const WORKFLOW_SEARCH_ATTRIBUTES = [PROJECT_ID, WORKSPACE_ID, LOCALE, PROJECT_STATUS, LANGUAGE_STATUS, FAILURE_CODE] as const;

/** What every project workflow carries, so the Web UI can find it by project or workspace. */
export const projectSearchAttributes = (projectId: string, workspaceId: string) =>
  new TypedSearchAttributes([
    { key: PROJECT_ID, value: projectId },
    { key: WORKSPACE_ID, value: workspaceId },
  ]);

/** A language workflow adds its locale. */
export const languageSearchAttributes = (projectId: string, workspaceId: string, locale: string) =>
  new TypedSearchAttributes([
    { key: PROJECT_ID, value: projectId },
    { key: WORKSPACE_ID, value: workspaceId },
    { key: LOCALE, value: locale },
  ]);
