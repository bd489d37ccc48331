import type { Project } from '../db/projects';
import type { ProjectLanguageSummary as ProjectLanguage } from '../db/project-languages';
import { counted } from '../shared/counted';

// The progress object (docs/design.md#progress) is derived only from what the workflows have
// recorded, so it never claims more than has happened.

export interface Progress {
  phase: string;
  waiting_on: 'upload' | 'service' | 'caller';
  can_advance_without_user: boolean;
  poll_after_seconds: number;
  message: string;
  percent: number;
}

const working = (phase: string, message: string, percent: number, poll = 10): Progress => ({
  phase,
  waiting_on: 'service',
  can_advance_without_user: true,
  poll_after_seconds: poll,
  message,
  percent: Math.max(0, Math.min(99, Math.round(percent))),
});

const settled = (phase: string, message: string, percent: number): Progress => ({
  phase,
  waiting_on: 'caller',
  can_advance_without_user: false,
  poll_after_seconds: 0,
  message,
  percent,
});

export function languageProgress(language: ProjectLanguage): Progress {
  switch (language.status) {
    case 'queued':
      return working('queued', language.phase_message ?? 'Waiting for the source transcript.', 0);
    case 'translating':
      return working('translating', language.phase_message ?? 'Translating the transcript.', Math.max(language.percent, 5));
    case 'dubbing':
      return working('dubbing', language.phase_message ?? 'Synthesizing and aligning speech.', Math.max(language.percent, 25));
    case 'publishing':
      return working('publishing', language.phase_message ?? 'Encoding audio, captions and thumbnail.', Math.max(language.percent, 85));
    case 'completed':
      return settled('completed', 'Dubbed; the files are ready to download.', 100);
    case 'failed':
      return settled('failed', language.failure_message ?? 'This language failed.', language.percent);
  }
}

/** `received` null: the parts go straight to an object store and only the store knows (see uploadProgressByProject). */
export function projectProgress(project: Project, languages: ProjectLanguage[], upload?: { received: number | null; total: number }): Progress {
  const total = project.target_locales.length;
  const done = languages.filter((l) => l.status === 'completed').length;
  const failed = languages.filter((l) => l.status === 'failed').length;
  switch (project.status) {
    case 'awaiting_upload': {
      const parts = upload?.total ?? 0;
      const waiting = { phase: 'uploading', waiting_on: 'upload', can_advance_without_user: false, poll_after_seconds: 30 } as const;
      if (upload?.received === null) {
        return {
          ...waiting,
          message: `Waiting for the upload of ${counted(parts, 'part')}. Parts go straight to storage: get this project with include_transfer=true to see which have arrived. Send the missing parts, then complete the upload.`,
          percent: 0,
        };
      }
      const received = upload?.received ?? 0;
      return {
        ...waiting,
        message: `Waiting for the upload: ${received} of ${counted(parts, 'part')} received. Send the missing parts, then complete the upload.`,
        percent: parts ? Math.round((5 * received) / parts) : 0,
      };
    }
    case 'validating':
      if (project.phase === 'fetching') {
        const fetched = project.fetch_percent ?? 0;
        return working('fetching', `Fetching the video from YouTube: ${fetched}% downloaded.`, (5 * fetched) / 100, 5);
      }
      return working('validating', 'Checking the source media and its duration.', 5, 5);
    case 'processing': {
      if (project.phase === 'transcribing') return working('transcribing', 'Transcribing the source speech.', 10);
      const languagePercent = languages.reduce((sum, l) => sum + languageProgress(l).percent, 0) / Math.max(total, 1);
      return working('dubbing', `Dubbing ${counted(total, 'language')}: ${done} completed${failed ? `, ${failed} failed` : ''}.`, 20 + 0.8 * languagePercent);
    }
    case 'completed':
      return settled('completed', `${total === 1 ? 'The language is' : `All ${total} languages are`} dubbed; download the files.`, 100);
    case 'partially_completed':
      return settled('completed', `${done} of ${total} languages dubbed; ${failed} failed and ${failed === 1 ? 'was' : 'were'} refunded.`, 100);
    case 'failed':
      return settled('failed', project.failure_message ?? 'The project failed.', 100);
  }
}
