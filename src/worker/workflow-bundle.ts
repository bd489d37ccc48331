import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';
import { WORKFLOW_TRACING_INTERCEPTORS } from '../tracing/temporal-worker-tracing';

/** src/workflows, what every workflow worker runs. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * Workflow interceptor modules compiled into the bundle with the workflows. A pre-built bundle
 * (tests, the worker image, the benchmark) cannot take them later, so every bundle is made here.
 */
export const WORKFLOW_INTERCEPTOR_MODULES: readonly string[] = [WORKFLOW_TRACING_INTERCEPTORS];

/** The workflow bundle, as the worker would make it at start without WORKFLOW_BUNDLE_PATH. */
export async function bundleWorkflows(logger?: BundleOptions['logger']): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES], logger });
  return code;
}
