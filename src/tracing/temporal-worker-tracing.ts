import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { installedTracing } from './install-tracing';

// The worker's half of Temporal's OpenTelemetry interceptors (the client's half is in
// src/temporal/connection.ts). All of it is always registered: with no tracer provider
// installed the spans are no-ops and the workflow spans are dropped at the sink.

/**
 * The workflow interceptors (RunWorkflow, StartActivity, StartChildWorkflow... spans, and the
 * trace context passed on in the headers of what a workflow schedules). They run inside the
 * workflow sandbox, so they are part of the workflow bundle: see src/worker/workflow-bundle.ts.
 */
export const WORKFLOW_TRACING_INTERCEPTORS = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** A RunActivity span per attempt, child of the workflow's StartActivity; and trace ids on activity log lines. */
export const activityTracingInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
  outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
});

/**
 * The sandbox cannot export spans itself: it hands them to this sink, which gives them to the
 * process's span processor. Looked up at each call, so a worker created before tracing was
 * installed (or after it was shut down) exports to whatever is installed now; with none, the
 * spans are dropped. Not called during replay: a span is exported once, when first made.
 */
export function workflowSpanSinks(): InjectedSinks<OpenTelemetrySinks> {
  return {
    exporter: {
      export: {
        fn(info, spans) {
          const tracing = installedTracing();
          return tracing ? makeWorkflowExporter(tracing.spanProcessor, tracing.resource).export.fn(identifyingFields(info), spans) : undefined;
        },
      },
    },
  };
}

/**
 * Temporal's exporter stamps what it is given of the WorkflowInfo on every workflow span. The
 * whole of it holds nested objects (search attributes, the memo, deployment details) that span
 * attributes are not meant to carry, and a memo may hold what a trace should not: give it the
 * fields that say which run made the span.
 */
function identifyingFields(info: WorkflowInfo): WorkflowInfo {
  const { workflowId, runId, workflowType, taskQueue, namespace, attempt } = info;
  return { workflowId, runId, workflowType, taskQueue, namespace, attempt } as WorkflowInfo;
}
