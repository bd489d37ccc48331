import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Resource, type IResource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** The process's tracer provider, once installed: what the worker's workflow span sink feeds. */
export interface Tracing {
  readonly spanProcessor: SpanProcessor;
  readonly resource: IResource;
  /** Ends pending spans (a batch exporter sends what it holds) and uninstalls the provider. */
  shutdown(): Promise<void>;
}

let installed: Tracing | null = null;

/**
 * Makes this process trace: a tracer provider with `spanProcessor` (the OTLP batch processor in
 * the services, an in-memory one in tests) becomes the global one, with W3C trace context
 * (`traceparent`) as the propagator and the AsyncLocalStorage context manager (the Node
 * provider's default), so the span a request or an activity opens is the parent of every span
 * opened under it, across awaits. One per process.
 */
export function installTracing(options: { serviceName: string; spanProcessor: SpanProcessor }): Tracing {
  if (installed) throw new Error('tracing is already installed in this process');
  const resource = Resource.default().merge(new Resource({ [ATTR_SERVICE_NAME]: options.serviceName }));
  // mergeResourceWithDefaults off: `resource` already holds the defaults, and the workflow span
  // sink stamps the very same resource on the spans it receives from the workflow sandbox.
  const provider = new NodeTracerProvider({ resource, mergeResourceWithDefaults: false, spanProcessors: [options.spanProcessor] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const tracing: Tracing = {
    spanProcessor: options.spanProcessor,
    resource,
    async shutdown() {
      if (installed !== tracing) return;
      installed = null;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
  installed = tracing;
  return tracing;
}

/** The tracing installed in this process, or null when it does not trace. */
export function installedTracing(): Tracing | null {
  return installed;
}
