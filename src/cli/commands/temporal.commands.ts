import { setUpNamespace } from '../../temporal/set-up-namespace';
import type { RegisterCommand } from './index';

export const temporalSetup: RegisterCommand = (program, ctx) =>
  program
    .command('temporal:setup')
    .description('check the Temporal namespace (TEMPORAL_NAMESPACE) and register the search attributes the workflows set; safe to repeat')
    .action(async () => {
      const { namespace, address } = ctx.config.temporal;
      const result = await setUpNamespace(ctx.temporal().connection, namespace);
      const retention = result.retentionDays === null ? 'unknown retention' : `retention ${result.retentionDays} days`;
      ctx.print(`namespace ${namespace} on ${address}: exists (${retention})`);
      if (result.added.length > 0) ctx.print(`registered search attributes: ${result.added.join(', ')}`);
      if (result.present.length > 0) ctx.print(`already registered: ${result.present.join(', ')}`);
    });
