// What the API hands the regeneration workflow, and what it answers (docs/editing.md#regenerate).
// Pure types: imported by the workflow, the API and the activities alike.

export interface RegenerationWorkflowInput {
  /** The `language_regenerations` row that paid for this run. */
  regenerationId: string;
  projectId: string;
  locale: string;
}

export interface RegenerationWorkflowResult {
  status: 'completed' | 'failed';
  /** The language's revision once published; absent when the run failed. */
  revision?: number;
}
