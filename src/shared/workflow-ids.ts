// Workflow ids are business ids: starting the same business operation twice maps to the same
// workflow, which Temporal refuses to run twice. Pure functions, safe to import from workflows.

export const creditGrantWorkflowId = (reference: string): string => `credit-grant/${reference}`;
export const projectWorkflowId = (projectId: string): string => `project/${projectId}`;
export const languageWorkflowId = (projectId: string, locale: string): string =>
  `project/${projectId}/lang/${locale}`;
