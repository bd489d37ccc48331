// Examples the reference page shows for creating a project; the contract tests validate them
// against the very schemas they illustrate, so they cannot drift from the API.

export const createProjectExample = {
  name: 'Cooking rice',
  external_id: 'video-1042',
  source_locale: 'en_us',
  target_locales: ['es_es', 'ca_es'],
  max_billable_seconds: 120,
  source: { type: 'upload', file_name: 'rice.mp4', size_bytes: 12_582_912 },
  // Catalan is left to its default, its most natural voice (docs/voices.md).
  voices: { es_es: 'espeak:es+f3' },
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
    background: 'duck',
    background_track: null,
    caption_rules: 'standard',
    loudness: 'web',
    languages: [],
    speakers: { num_speakers: 0, items: [] },
    glossary: { id: 'gls_k3v9q2m7x1c8b4n6', version: 2 },
    video: { burned_captions: false },
    range: null,
    preview: false,
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

const PROJECT_ID = '5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15';

export const projectListExample = {
  data: [
    {
      id: PROJECT_ID,
      name: 'Cooking rice',
      external_id: 'video-1042',
      status: 'processing',
      progress: { phase: 'dubbing', waiting_on: 'service', can_advance_without_user: true, poll_after_seconds: 10, message: 'Dubbing 2 languages: 1 completed.', percent: 60 },
      source_locale: 'en_us',
      target_locales: ['es_es', 'ca_es'],
      usage: { max_billable_seconds: 120, billable_seconds: 95, charged_seconds: 190, refunded_seconds: 0, state: 'charged' },
      created_at: '2026-11-24T06:00:00.000Z',
    },
  ],
  page: { has_more: true, next_cursor: 'eyJzIjo0MiwidyI6IjEifQ.3vQm7yWc2bXg0kqJ8pL1aA' },
};

export const uploadCompletedExample = { data: { id: PROJECT_ID, status: 'validating', source: { type: 'upload', file_name: 'rice.mp4' } } };

export const trackCompletedExample = { data: { id: PROJECT_ID, background_track: { file_name: 'rice-me.wav', size_bytes: 5760044, completed: true } } };

export const additionPreviewExample = {
  data: { addition: { preview_only: true, existing_locales: [], new_locales: ['gl_es'], billable_seconds: 95, credits: 95, max_billable_seconds: 120, within_limit: true } },
};

export const reviewPreviewExample = {
  data: {
    review: { preview_only: true, already_requested: false, billable_seconds: 120, credits: 120, max_billable_seconds: 120, within_limit: true, charged_now_seconds: 0 },
    project: { id: PROJECT_ID, transcript_review: { requested: false, status: 'not_requested' } },
  },
};

const download = (query: string) => `http://localhost:3000/v1/dubbing/projects/${PROJECT_ID}/download?${query}`;

// The transfer block is gone once the upload is complete.
const { transfer: _transfer, ...createdWithoutTransfer } = createdProjectExample.data;

export const completedProjectExample = {
  data: {
    ...createdWithoutTransfer,
    status: 'completed',
    source: { type: 'upload', duration_seconds: 94.6, file_name: 'rice.mp4', size_bytes: 12_582_912 },
    target_locales: ['es_es'],
    usage: { max_billable_seconds: 120, billable_seconds: 95, charged_seconds: 95, refunded_seconds: 0, state: 'charged' },
    progress: { phase: 'completed', waiting_on: 'caller', can_advance_without_user: false, poll_after_seconds: 0, message: 'All 1 language is dubbed; download the files.', percent: 100 },
    languages: [
      {
        locale: 'es_es',
        status: 'completed',
        progress: { phase: 'completed', waiting_on: 'caller', can_advance_without_user: false, poll_after_seconds: 0, message: 'Dubbed; the files are ready to download.', percent: 100 },
        publishing: { title: 'Cocinar arroz', description: '' },
        deliverables: [
          { type: 'audio', format: 'mp3', download_url: download('locale=es_es&type=audio&format=mp3') },
          { type: 'audio', format: 'wav', download_url: download('locale=es_es&type=audio&format=wav') },
          { type: 'dialog_stem', format: 'wav', download_url: download('locale=es_es&type=dialog_stem&format=wav') },
          { type: 'background_stem', format: 'wav', download_url: download('locale=es_es&type=background_stem&format=wav') },
          { type: 'subtitles', format: 'vtt', download_url: download('locale=es_es&type=subtitles&format=vtt') },
          { type: 'subtitles', format: 'srt', download_url: download('locale=es_es&type=subtitles&format=srt') },
          { type: 'subtitles', format: 'ttml', download_url: download('locale=es_es&type=subtitles&format=ttml') },
          { type: 'thumbnail', format: 'png', download_url: download('locale=es_es&type=thumbnail') },
          { type: 'video', format: 'mp4', download_url: download('locale=es_es&type=video&format=mp4') },
        ],
        revision: 1,
        voice: 'espeak:es+f3',
        speaker_voices: [
          { speaker_id: 'spk_a1b2c3d4e5f6g7h8', label: 'Ana', voice: 'espeak:es+f3', variant: false, chosen_by: 'machine' },
          { speaker_id: 'spk_q9r8s7t6u5v4w3x2', label: 'Ben', voice: 'espeak:es', variant: false, chosen_by: 'customer' },
        ],
        failure: null,
        usage: { charged_seconds: 95, refunded_seconds: 0, goodwill_seconds: 0 },
        alignment: { drift_seconds: 0.12 },
        caption_qc: { preset: 'standard', breaches: 1 },
        sync: { lines: 42, sped_up_lines: 3, sped_up_tempo: 1.15, max_tempo: 1.3, max_shift_seconds: 0.62, overlapping_lines: 2 },
        loudness: { preset: 'web', integrated_lufs: -16.1, range_lu: 6.4, true_peak_dbtp: -2.3 },
        video: { burned_captions: false },
        created_at: '2026-11-24T06:01:10.000Z',
        completed_at: '2026-11-24T06:03:42.000Z',
      },
    ],
    updated_at: '2026-11-24T06:03:42.000Z',
  },
};
