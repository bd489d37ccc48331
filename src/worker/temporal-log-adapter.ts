import type { Logger as TemporalLogger, LogLevel as TemporalLogLevel, LogMetadata } from '@temporalio/common';
import type { Logger } from '../logger';

// The Temporal SDK's logs (its own, the workflows' `log`, the activities' `log`) written through
// this process's pino logger: the same JSON lines, scrubbed the same way. The SDK tags activity
// and workflow lines with workflowId, runId, activityType, attempt…; the project's id is added
// from the workflow id (`project/<id>`, `project/<id>/lang/<locale>`, `review/<id>`…), so one
// grep on a project id finds its API requests and its worker steps alike.

const PROJECT_IN_WORKFLOW_ID = /(?:^|\/)(?:project|review)\/([0-9a-f-]{36})(?:\/|$)/;

function withIds(meta: LogMetadata | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta ?? {})) fields[key] = value;
  const workflowId = typeof fields.workflowId === 'string' ? fields.workflowId : undefined;
  const project = workflowId ? PROJECT_IN_WORKFLOW_ID.exec(workflowId) : null;
  if (project) fields.project_id = project[1];
  return fields;
}

export function temporalLogAdapter(logger: Logger): TemporalLogger {
  const at = (level: TemporalLogLevel, message: string, meta?: LogMetadata) => {
    const fields = withIds(meta);
    switch (level) {
      case 'TRACE':
      case 'DEBUG':
        return logger.debug(message, fields);
      case 'INFO':
        return logger.info(message, fields);
      case 'WARN':
        return logger.warn(message, fields);
      default:
        return logger.error(message, fields);
    }
  };
  return {
    log: at,
    trace: (message, meta) => at('TRACE', message, meta),
    debug: (message, meta) => at('DEBUG', message, meta),
    info: (message, meta) => at('INFO', message, meta),
    warn: (message, meta) => at('WARN', message, meta),
    error: (message, meta) => at('ERROR', message, meta),
  };
}
