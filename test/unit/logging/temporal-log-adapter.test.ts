import { Writable } from 'node:stream';
import { createLogger } from '../../../src/logger';
import { temporalLogAdapter } from '../../../src/worker/temporal-log-adapter';

it('writes the Temporal SDK lines as JSON with the workflow ids and the project id they name', () => {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const adapter = temporalLogAdapter(createLogger('debug', { service: 'worker' }, stream));
  const projectId = '0f9e1c2d-0000-4000-8000-000000000001';
  adapter.info('dub rendered', { workflowId: `project/${projectId}/lang/es_es`, activityType: 'dubLanguage', attempt: 2 });
  adapter.log('WARN', 'retrying', { workflowId: 'reconciler/2026' });
  adapter.trace('fine detail');
  const [rendered, warned, traced] = chunks
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(rendered).toMatchObject({
    level: 'info',
    message: 'dub rendered',
    service: 'worker',
    workflowId: `project/${projectId}/lang/es_es`,
    project_id: projectId,
    activityType: 'dubLanguage',
    attempt: 2,
  });
  expect(warned).toMatchObject({ level: 'warn', message: 'retrying' });
  expect(warned).not.toHaveProperty('project_id');
  expect(traced).toMatchObject({ level: 'debug', message: 'fine detail' });
});
