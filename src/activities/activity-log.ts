import { Context, log } from '@temporalio/activity';

/**
 * The activity logger (it tags each line with the workflow and activity), or a silent one when
 * an activity function is called directly, outside a worker, as the console and tests do.
 */
export function activityLog(): Pick<typeof log, 'info' | 'warn' | 'error'> {
  try {
    Context.current();
    return log;
  } catch {
    return { info: () => undefined, warn: () => undefined, error: () => undefined };
  }
}
