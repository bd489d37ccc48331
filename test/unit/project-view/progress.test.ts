import { projectProgress } from '../../../src/project-view/progress';
import type { Project } from '../../../src/db/projects';

// Progress while a YouTube source downloads: phase `fetching`, the percent in the message, and a
// small share of the project's overall percent.

const project = (changes: Partial<Project>) => ({ status: 'validating', phase: 'validating', target_locales: ['es_es'], fetch_percent: null, ...changes }) as Project;

describe('projectProgress while fetching', () => {
  it('says fetching with how much is downloaded', () => {
    const progress = projectProgress(project({ phase: 'fetching', fetch_percent: 40 }), []);
    expect(progress).toMatchObject({ phase: 'fetching', waiting_on: 'service', message: 'Fetching the video from YouTube: 40% downloaded.', percent: 2 });
  });

  it('starts at 0% and goes back to validating once downloaded', () => {
    expect(projectProgress(project({ phase: 'fetching' }), []).message).toBe('Fetching the video from YouTube: 0% downloaded.');
    expect(projectProgress(project({ phase: 'validating', fetch_percent: 100 }), []).phase).toBe('validating');
  });
});

describe('projectProgress while awaiting the upload', () => {
  const waiting = project({ status: 'awaiting_upload', phase: null as unknown as Project['phase'] });

  it('counts the parts the database has seen (local driver)', () => {
    expect(projectProgress(waiting, [], { received: 2, total: 4 })).toMatchObject({
      phase: 'uploading',
      waiting_on: 'upload',
      message: 'Waiting for the upload: 2 of 4 parts received. Send the missing parts, then complete the upload.',
      percent: 3,
    });
  });

  it('claims no count when the parts go straight to an object store, and says where to look', () => {
    const progress = projectProgress(waiting, [], { received: null, total: 4 });
    expect(progress).toMatchObject({ phase: 'uploading', waiting_on: 'upload', percent: 0 });
    expect(progress.message).toContain('include_transfer=true');
    expect(progress.message).not.toMatch(/\d+ of \d+ parts received/);
  });
});

describe('projectProgress counts in words people read', () => {
  const languages = (statuses: string[]) => statuses.map((status, i) => ({ locale: `l${i}_xx`, status, percent: 0, phase_message: null })) as any[];

  it('says "1 part", never "1 parts", on both drivers', () => {
    const waiting = project({ status: 'awaiting_upload', phase: null as unknown as Project['phase'] });
    expect(projectProgress(waiting, [], { received: 0, total: 1 }).message).toContain('0 of 1 part received.');
    expect(projectProgress(waiting, [], { received: null, total: 1 }).message).toMatch(/^Waiting for the upload of 1 part\. /);
    expect(projectProgress(waiting, [], { received: null, total: 3 }).message).toMatch(/^Waiting for the upload of 3 parts\. /);
  });

  it('says "The language is dubbed" for one language and "All 2 languages are dubbed" for more', () => {
    const one = project({ status: 'completed', target_locales: ['es_es'] });
    expect(projectProgress(one, languages(['completed'])).message).toBe('The language is dubbed; download the files.');
    const two = project({ status: 'completed', target_locales: ['es_es', 'ca_es'] });
    expect(projectProgress(two, languages(['completed', 'completed'])).message).toBe('All 2 languages are dubbed; download the files.');
  });

  it('says "Dubbing 1 language" while one language is under way', () => {
    const running = project({ status: 'processing', phase: 'dubbing', target_locales: ['es_es'] });
    expect(projectProgress(running, languages(['dubbing'])).message).toBe('Dubbing 1 language: 0 completed.');
  });
});
