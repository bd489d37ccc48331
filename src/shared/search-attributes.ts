import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';

// Registered on the dev server by scripts/lib/temporal-dev-server.ts and in docker-compose,
// so operators can filter the Temporal Web UI by project, workspace and language.
export const PROJECT_ID = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
export const WORKSPACE_ID = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const LOCALE = defineSearchAttributeKey('Locale', SearchAttributeType.KEYWORD);

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
