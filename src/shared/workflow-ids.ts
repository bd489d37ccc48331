// Workflow ids are business ids: starting the same business operation twice maps to the same
// workflow, which Temporal refuses to run twice. Pure functions, safe to import from workflows.

/**
 * Takes the grant's ledger reference, which the console scopes to its workspace
 * (`grant:<workspace id>:<operator reference>`), so the workflow id is per workspace too.
 */
export const creditGrantWorkflowId = (ledgerReference: string): string => `credit-grant/${ledgerReference}`;
export const projectWorkflowId = (projectId: string): string => `project/${projectId}`;
export const languageWorkflowId = (projectId: string, locale: string): string => `project/${projectId}/lang/${locale}`;
/** The project's human transcript review; at most one per project. */
export const transcriptReviewWorkflowId = (projectId: string): string => `project/${projectId}/review`;
export const channelWorkflowId = (channelId: string): string => `channel/${channelId}`;
export const channelScheduleId = (channelId: string): string => `channel-sync/${channelId}`;
/** One delivery of one event to one endpoint; a redelivery is a new delivery id. */
export const webhookDeliveryWorkflowId = (deliveryId: string): string => `webhook-delivery/${deliveryId}`;
/** One paid regeneration of a language; `n` counts the language's regenerations from 1. */
export const regenerationWorkflowId = (projectId: string, locale: string, n: number): string => `project/${projectId}/lang/${locale}/regen/${n}`;
