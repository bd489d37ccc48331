// Examples the reference page shows for creating a project; the contract tests validate them
// against the very schemas they illustrate, so they cannot drift from the API.

export const createProjectExample = {
  name: 'Cooking rice',
  external_id: 'video-1042',
  source_locale: 'en_us',
  target_locales: ['es_es', 'ca_es'],
  max_billable_seconds: 120,
  source: { type: 'upload', file_name: 'rice.mp4', size_bytes: 12_582_912 },
};

export const createdProjectExample = {
  data: {
    id: '5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15',
    name: 'Cooking rice',
    external_id: 'video-1042',
    status: 'awaiting_upload',
    source: { type: 'upload', duration_seconds: null, file_name: 'rice.mp4', size_bytes: 12_582_912 },
    source_locale: 'en_us',
    target_locales: ['es_es', 'ca_es'],
    usage: { max_billable_seconds: 120, billable_seconds: null, charged_seconds: 0, refunded_seconds: 0, state: 'pending_validation' },
    progress: {
      phase: 'uploading',
      waiting_on: 'upload',
      can_advance_without_user: false,
      poll_after_seconds: 30,
      message: 'Waiting for the upload: 0 of 2 parts received. Send the missing parts, then complete the upload.',
      percent: 0,
    },
    transcript_review: { requested: false, status: 'not_requested', requested_at: null, verified_at: null },
    publishing: { title: 'Cooking rice', description: '' },
    languages: [],
    failure: null,
    created_at: '2026-11-24T06:00:00.000Z',
    updated_at: '2026-11-24T06:00:00.000Z',
    transfer: {
      upload_id: 'upl_0c6f8f0e2a7b4d59a1c3e5f7091b2d4e',
      part_size_bytes: 8_388_608,
      part_count: 2,
      expires_at: '2026-11-25T06:00:00.000Z',
      parts: [
        { part_number: 1, url: 'http://localhost:3000/v1/uploads/upl_0c6f8f0e2a7b4d59a1c3e5f7091b2d4e/parts/1?expires=1795672800&signature=4b1d0c9e7a2f', uploaded: false },
        { part_number: 2, url: 'http://localhost:3000/v1/uploads/upl_0c6f8f0e2a7b4d59a1c3e5f7091b2d4e/parts/2?expires=1795672800&signature=4b1d0c9e7a2f', uploaded: false },
      ],
    },
  },
};
