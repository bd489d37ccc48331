import type { WebhookEventType } from '../../../src/shared/webhook-contracts';
import { eventBody } from '../../../src/webhooks/event-body';

// The body a receiver gets (docs/webhooks.md#events): a language event names its locale, and
// language.completed the revision it published, read from the stored event's discriminator.

const event = (type: WebhookEventType, discriminator: string) => ({
  id: 'evt-1',
  type,
  created_at: new Date('2026-11-30T10:00:00.500Z'),
  sequence: 4,
  project_id: 'p-1',
  discriminator,
  payload: { id: 'p-1', languages: [{ locale: 'es_es', revision: 3 }] },
});

describe('eventBody', () => {
  it('language.completed carries its locale and the revision it published', () => {
    expect(JSON.parse(eventBody(event('language.completed', 'es_es:1:2')))).toEqual({
      id: 'evt-1',
      object: 'event',
      type: 'language.completed',
      created: 1796032800,
      project_id: 'p-1',
      locale: 'es_es',
      revision: 2,
      sequence: 4,
      data: { object: { id: 'p-1', languages: [{ locale: 'es_es', revision: 3 }] } },
    });
  });

  it('language.failed carries its locale and no revision; a project event neither', () => {
    const failed = JSON.parse(eventBody(event('language.failed', 'ca_es:2')));
    expect(failed).toMatchObject({ type: 'language.failed', locale: 'ca_es' });
    expect(failed).not.toHaveProperty('revision');
    const completed = JSON.parse(eventBody(event('project.completed', 'completed:2026-11-30T10:00:00.000Z')));
    expect(completed).not.toHaveProperty('locale');
    expect(completed).not.toHaveProperty('revision');
  });
});
