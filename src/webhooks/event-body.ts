import type { WebhookEvent } from '../db/webhooks';

/**
 * The JSON a receiver gets, built from the stored event: the same bytes on every attempt of
 * every delivery of it. `data.object` is the project as GET returned it when the event happened;
 * a language event also names its `locale` (its discriminator starts with it), and
 * `language.completed` the `revision` it published (the discriminator's last part,
 * `<locale>:<attempt>:<revision>`, src/lifecycle/project-events.ts): a regeneration's event says
 * which files it is about even when a later revision is already in `data.object`.
 */
export function eventBody(event: Pick<WebhookEvent, 'id' | 'type' | 'created_at' | 'sequence' | 'project_id' | 'discriminator' | 'payload'>): string {
  return JSON.stringify({
    id: event.id,
    object: 'event',
    type: event.type,
    created: Math.floor(event.created_at.getTime() / 1000),
    project_id: event.project_id,
    ...(event.type.startsWith('language.') ? { locale: event.discriminator.split(':')[0] } : {}),
    ...(event.type === 'language.completed' ? { revision: Number(event.discriminator.split(':')[2]) } : {}),
    sequence: event.sequence,
    data: { object: event.payload },
  });
}
