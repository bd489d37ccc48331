import type { RegenerationWorkflowInput, RegenerationWorkflowResult } from '../shared/regeneration-contracts';

/**
 * Regenerates the changed lines of one completed language and publishes the next revision
 * (docs/editing.md#regenerate): `project/<id>/lang/<locale>/regen/<n>`, started by the API once
 * the charge committed. Refunds once if it fails.
 */
export async function regenerateLanguageWorkflow(input: RegenerationWorkflowInput): Promise<RegenerationWorkflowResult> {
  throw new Error(`not built yet: regeneration ${input.regenerationId}`);
}
