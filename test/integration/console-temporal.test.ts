import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { consoleRun } from '../helpers/console-run';
import { waitFor } from '../helpers/wait-for';

// `temporal:setup` on a namespace that, like one on a real cluster, was created without the
// workflows' search attributes: it checks the namespace, registers them once, and is safe to repeat.

let connection: Connection;
const savedNamespace = process.env.TEMPORAL_NAMESPACE;
beforeAll(async () => {
  connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
});
afterAll(async () => {
  if (savedNamespace === undefined) delete process.env.TEMPORAL_NAMESPACE;
  else process.env.TEMPORAL_NAMESPACE = savedNamespace;
  await connection.close();
});

it('registers the search attributes in an existing namespace, then finds them there', async () => {
  const namespace = `scale-${randomUUID().slice(0, 8)}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('3 days') });
  await waitFor(
    'the namespace to be usable',
    async () =>
      connection.workflowService.describeNamespace({ namespace }).then(
        () => true,
        () => false,
      ),
    30_000,
  );
  process.env.TEMPORAL_NAMESPACE = namespace;

  const first = await consoleRun('temporal:setup');
  expect(first.code).toBe(0);
  expect(first.out).toContain(`namespace ${namespace} on ${process.env.TEMPORAL_ADDRESS}: exists (retention 3 days)`);
  expect(first.out).toContain('registered search attributes: ProjectId, WorkspaceId, Locale');
  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  expect(Object.keys(listed.customAttributes ?? {})).toEqual(expect.arrayContaining(['ProjectId', 'WorkspaceId', 'Locale']));

  const again = await waitFor(
    'the attributes to be visible to a second run',
    async () => {
      const run = await consoleRun('temporal:setup');
      return run.out.includes('already registered: ProjectId, WorkspaceId, Locale') ? run : undefined;
    },
    30_000,
    500,
  );
  expect(again.code).toBe(0);
  expect(again.out).not.toContain('registered search attributes:');
});

it('refuses a namespace that does not exist, naming it, and creates nothing', async () => {
  const namespace = `missing-${randomUUID().slice(0, 8)}`;
  process.env.TEMPORAL_NAMESPACE = namespace;
  const run = await consoleRun('temporal:setup');
  expect(run.code).toBe(1);
  expect(run.out).toContain(`error: namespace "${namespace}" does not exist`);
  await expect(connection.workflowService.describeNamespace({ namespace })).rejects.toThrow();
});
