// Bundle entry: every workflow the worker runs. Workflow files import activity *types* only.
export { channelSyncWorkflow } from './channel-sync.workflow';
export { creditGrantWorkflow } from './credit-grant.workflow';
export { languageWorkflow } from './language.workflow';
export { projectWorkflow } from './project.workflow';
export { regenerateLanguageWorkflow } from './regenerate-language.workflow';
export { reconcilerWorkflow } from './reconciler.workflow';
export { transcriptReviewWorkflow } from './transcript-review.workflow';
export { uploadExpiryWorkflow } from './upload-expiry.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
