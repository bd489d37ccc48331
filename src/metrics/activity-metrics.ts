import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory } from '@temporalio/worker';
import { activitySeconds } from './metrics';

/**
 * Times every activity execution of this worker by type and outcome (`completed` or `failed`;
 * a failed attempt that Temporal retries is counted once per attempt).
 */
export const activityMetricsInterceptor: ActivityInterceptorsFactory = (ctx) => {
  const inbound: ActivityInboundCallsInterceptor = {
    async execute(input, next) {
      const end = activitySeconds.startTimer({ activity: ctx.info.activityType });
      try {
        const result = await next(input);
        end({ outcome: 'completed' });
        return result;
      } catch (err) {
        end({ outcome: 'failed' });
        throw err;
      }
    },
  };
  return { inbound };
};
