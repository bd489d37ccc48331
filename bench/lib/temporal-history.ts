import type { Client } from '@temporalio/client';

// Reads a workflow's event history into spans: each activity (scheduled → started → closed),
// each child workflow (initiated → closed), each signal, and the workflow's own close.

export interface Span {
  workflowId: string;
  kind: 'activity' | 'child' | 'signal' | 'workflow';
  name: string;
  scheduledMs: number;
  startedMs: number;
  endMs: number;
  outcome: string;
  attempt?: number;
}

interface Ts {
  seconds?: unknown;
  nanos?: number | null;
}

const toMs = (ts: Ts | null | undefined): number => (ts ? Number(String(ts.seconds ?? 0)) * 1000 + (ts.nanos ?? 0) / 1e6 : Number.NaN);
const idOf = (value: unknown): string => String(value ?? '');

export async function workflowSpans(client: Client, workflowId: string): Promise<Span[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = (history.events ?? []) as any[];
  const byId = new Map<string, any>(events.map((e) => [idOf(e.eventId), e]));
  const spans: Span[] = [];
  const closes: [string, string][] = [
    ['activityTaskCompletedEventAttributes', 'completed'],
    ['activityTaskFailedEventAttributes', 'failed'],
    ['activityTaskTimedOutEventAttributes', 'timed out'],
    ['activityTaskCanceledEventAttributes', 'canceled'],
  ];
  const childCloses: [string, string][] = [
    ['childWorkflowExecutionCompletedEventAttributes', 'completed'],
    ['childWorkflowExecutionFailedEventAttributes', 'failed'],
    ['childWorkflowExecutionTimedOutEventAttributes', 'timed out'],
    ['childWorkflowExecutionTerminatedEventAttributes', 'terminated'],
    ['childWorkflowExecutionCanceledEventAttributes', 'canceled'],
  ];
  for (const event of events) {
    const at = toMs(event.eventTime);
    for (const [field, outcome] of closes) {
      const attrs = event[field];
      if (!attrs) continue;
      const scheduled = byId.get(idOf(attrs.scheduledEventId));
      const started = byId.get(idOf(attrs.startedEventId));
      spans.push({
        workflowId,
        kind: 'activity',
        name: scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?',
        scheduledMs: toMs(scheduled?.eventTime),
        startedMs: started ? toMs(started.eventTime) : Number.NaN,
        endMs: at,
        outcome,
        attempt: started?.activityTaskStartedEventAttributes?.attempt ?? undefined,
      });
    }
    for (const [field, outcome] of childCloses) {
      const attrs = event[field];
      if (!attrs) continue;
      const initiated = byId.get(idOf(attrs.initiatedEventId));
      const started = byId.get(idOf(attrs.startedEventId));
      spans.push({
        workflowId,
        kind: 'child',
        name: attrs.workflowExecution?.workflowId ?? '?',
        scheduledMs: toMs(initiated?.eventTime),
        startedMs: started ? toMs(started.eventTime) : Number.NaN,
        endMs: at,
        outcome,
      });
    }
    if (event.workflowExecutionSignaledEventAttributes) {
      spans.push({ workflowId, kind: 'signal', name: event.workflowExecutionSignaledEventAttributes.signalName ?? '?', scheduledMs: at, startedMs: at, endMs: at, outcome: 'received' });
    }
    for (const [field, outcome] of [
      ['workflowExecutionCompletedEventAttributes', 'completed'],
      ['workflowExecutionFailedEventAttributes', 'failed'],
    ] as const) {
      if (event[field]) {
        const first = toMs(events[0]?.eventTime);
        spans.push({ workflowId, kind: 'workflow', name: workflowId, scheduledMs: first, startedMs: first, endMs: at, outcome });
      }
    }
  }
  return spans;
}
