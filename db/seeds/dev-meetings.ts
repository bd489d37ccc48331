import type { MeetingImportRecord } from '../../src/notes/meeting-import-record';
import { importMeetings } from '../../src/cli/import-meetings';
import type { Db } from '../../src/db/create-db';

// A handful of meetings for the dev user, so GET /v1/notes/meetings has something to show.
// They go through the same validated import as operator files, and fixed ids make a re-run an
// update rather than duplicates. Two are of the kinds the API never lists (local-only, hidden).

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

type SeedMeeting = Partial<MeetingImportRecord> & Pick<MeetingImportRecord, 'id' | 'name' | 'started_at' | 'ended_at' | 'duration_seconds' | 'updated_at'>;

export const DEV_MEETINGS: SeedMeeting[] = [
  {
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d01',
    name: 'Weekly product sync',
    started_at: at('2026-11-16T15:00:00Z'),
    ended_at: at('2026-11-16T15:32:10Z'),
    duration_seconds: 1930,
    updated_at: at('2026-11-16T15:40:02Z'),
    tags: [
      { id: 'tag_product', name: 'Product' },
      { id: 'tag_weekly', name: 'Weekly' },
    ],
    transcript_text: 'Maya: Let us start with the dubbing launch. Omar: The Spanish and Portuguese voices passed review. Maya: Then we ship on Thursday.',
    transcript_segments: [
      { speaker: 'Maya', start_seconds: 0, end_seconds: 4.2, text: 'Let us start with the dubbing launch.' },
      { speaker: 'Omar', start_seconds: 4.6, end_seconds: 9.8, text: 'The Spanish and Portuguese voices passed review.' },
      { speaker: 'Maya', start_seconds: 10.1, end_seconds: 12.5, text: 'Then we ship on Thursday.' },
    ],
    notes: [{ id: 'note_1', text: 'Launch Thursday; Omar to post release notes.', created_at: at('2026-11-16T15:30:00Z') }],
    summary: '## Decisions\n- Ship dubbing for es and pt on Thursday.\n\n## Action items\n- Omar: release notes.',
    summary_generated_at: at('2026-11-16T15:33:00Z'),
  },
  {
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d02',
    name: 'Customer call: Northwind Studios',
    started_at: at('2026-11-17T18:30:00Z'),
    ended_at: at('2026-11-17T19:15:45Z'),
    duration_seconds: 2745,
    updated_at: at('2026-11-17T19:20:00Z'),
    tags: [{ id: 'tag_customer', name: 'Customer' }],
    transcript_text: 'Lena: We publish about forty videos a month. Dev: The API can dub each one into six languages.',
    transcript_segments: [
      { speaker: 'Lena', start_seconds: 0, end_seconds: 3.9, text: 'We publish about forty videos a month.' },
      { speaker: 'Dev', start_seconds: 4.3, end_seconds: 7.7, text: 'The API can dub each one into six languages.' },
    ],
    notes: [],
    summary: null,
    summary_generated_at: null,
  },
  {
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d03',
    name: '1:1 with Omar',
    started_at: at('2026-11-18T10:00:00Z'),
    ended_at: at('2026-11-18T10:25:00Z'),
    duration_seconds: 1500,
    updated_at: at('2026-11-18T10:26:30Z'),
    tags: [],
    notes: [{ id: 'note_1', text: 'Omar wants to own the transcript-review integration.', created_at: at('2026-11-18T10:20:00Z') }],
  },
  {
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d04',
    name: 'Incident review: stuck uploads',
    started_at: at('2026-11-19T13:00:00Z'),
    ended_at: at('2026-11-19T13:48:20Z'),
    duration_seconds: 2900,
    updated_at: at('2026-11-19T14:05:00Z'),
    tags: [
      { id: 'tag_incident', name: 'Incident' },
      { id: 'tag_eng', name: 'Engineering' },
    ],
    transcript_text: 'Priya: Uploads stalled when the last part was smaller than five megabytes. Dev: The fix resumes from the parts already stored.',
    transcript_segments: [
      { speaker: 'Priya', start_seconds: 0, end_seconds: 5.5, text: 'Uploads stalled when the last part was smaller than five megabytes.' },
      { speaker: 'Dev', start_seconds: 6, end_seconds: 9.4, text: 'The fix resumes from the parts already stored.' },
    ],
    summary: 'Root cause: last-part size check. Fix deployed; resumable uploads verified.',
    summary_generated_at: at('2026-11-19T13:50:00Z'),
  },
  {
    // Same start as the incident review: the list breaks the tie by id.
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d05',
    name: 'Design review: meeting notes API',
    started_at: at('2026-11-19T13:00:00Z'),
    ended_at: at('2026-11-19T13:30:00Z'),
    duration_seconds: 1800,
    updated_at: at('2026-11-19T13:31:00Z'),
    tags: [{ id: 'tag_eng', name: 'Engineering' }],
  },
  {
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d06',
    name: 'Draft recording (not synced yet)',
    started_at: at('2026-11-20T09:00:00Z'),
    ended_at: at('2026-11-20T09:05:00Z'),
    duration_seconds: 300,
    updated_at: at('2026-11-20T09:05:00Z'),
    sync_state: 'local_only',
  },
  {
    id: '0b9f6c1e-6a51-4d1e-9a57-1f3c7e2a9d07',
    name: 'Personal: dentist reminder',
    started_at: at('2026-11-20T11:00:00Z'),
    ended_at: at('2026-11-20T11:02:00Z'),
    duration_seconds: 120,
    updated_at: at('2026-11-20T11:02:00Z'),
    hidden: true,
  },
];

export async function seedDevMeetings(db: Db, userId: string): Promise<number> {
  return (await importMeetings(db, userId, DEV_MEETINGS)).imported;
}
