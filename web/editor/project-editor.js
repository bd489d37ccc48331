import { createAudioPlayer } from './audio-player.js';
import { captionBreachesByLine } from './caption-qc.js';
import { createProjectSpeakers } from './project-speakers.js';
import { createRegeneratePanel } from './regenerate-panel.js';
import { createSegmentTable } from './segment-table.js';
import { watchProject } from './project-watch.js';

// One project in the editor (docs/editing.md#the-editor): its segments and lines in the table,
// a box per language to regenerate it, and the wiring between them and the API. Edits are saved
// as they are made; a source edit turns that segment's lines `stale`, which the table shows at
// once by reading the languages' lines again. Its speakers have a panel of their own, and each
// row says who speaks it.

export async function openProjectEditor({ api, projectId, messages, elements }) {
  messages.notice('Loading the project…');
  let project = (await api.getProject(projectId)).data;
  const transcript = await api.getTranscript(projectId);
  const locales = project.target_locales;
  const languageOf = (p, locale) => p.languages.find((l) => l.locale === locale);

  /** The language's caption QC; null while it has no published captions (409) to check. */
  const captionQc = (locale) =>
    languageOf(project, locale)?.status === 'completed'
      ? api.getCaptionQc(projectId, locale).catch((err) => {
          if (err.status === 409) return null;
          throw err;
        })
      : Promise.resolve(null);

  async function loadLanguage(locale) {
    const [language, qc] = await Promise.all([api.getLanguageSegments(projectId, locale), captionQc(locale)]);
    table.showLanguage(locale, language.segments, captionBreachesByLine(qc), language.sync);
  }
  const loadLanguages = () => Promise.all(locales.map(loadLanguage));

  const saving = messages.saving;

  const saveSource = saving(async (segmentId, text) => {
    const segment = await api.editSourceSegment(projectId, segmentId, text);
    messages.notice('Saved. Its translations are stale until the language is regenerated.');
    // Saved whatever follows: a failed read of the lines must not put the old words back.
    await loadLanguages().catch((err) => messages.error(err));
    return segment.text;
  });

  const saveLine = saving(async (locale, lineId, text) => {
    const line = await api.editLine(projectId, locale, lineId, text);
    table.showEditedLine(locale, line);
    messages.notice(`Saved. The ${locale} line is yours now: regenerating dubs it as written.`);
    return line.text;
  });

  /** Signed links live minutes (SIGNED_URL_TTL_SECONDS): fresh ones when one has gone stale. */
  async function refreshLinks() {
    try {
      table.refreshSourceAudio((await api.getTranscript(projectId)).source_audio_url);
      await loadLanguages();
      messages.notice('The audio links had expired; fresh ones are loaded. Press play again.');
    } catch (err) {
      messages.error(err);
    }
  }

  const player = createAudioPlayer({ sourceElement: elements.sourcePlayer, clipElement: elements.clipPlayer, sampleElement: elements.samplePlayer, onLinkFailed: refreshLinks });
  const speakers = createProjectSpeakers({
    api,
    projectId,
    locales,
    player,
    messages,
    section: elements.speakers,
    onSpeakers: (list) => table.showSpeakers(list),
    onLinesChanged: loadLanguages,
  });
  const table = createSegmentTable(elements.table, { locales, player, saveSource, saveLine, moveSegment: speakers.moveSegment, onError: (err) => messages.error(err) });
  table.showTranscript(transcript);
  elements.sourceAudioNote.hidden = transcript.source_audio_url !== null || transcript.segments.length === 0;

  const panels = new Map();
  function showProject(next) {
    project = next;
    elements.summary.textContent = `${project.name} · ${project.source_locale} → ${locales.join(', ')} · ${project.status}`;
    for (const [locale, panel] of panels) {
      const language = languageOf(project, locale);
      if (language) panel.showLanguage(language);
    }
  }

  /** After a paid regeneration: watch the project until the language's next revision (or its refund). */
  function awaitRegeneration(locale, panel, { fromRevision, refundedSeconds }) {
    watchProject({
      api,
      projectId,
      onProject: showProject,
      onError: (err) => messages.error(err),
      done: (current) => {
        const language = languageOf(current, locale);
        if (!language) return false;
        let outcome;
        if (language.revision > fromRevision) outcome = `Revision ${language.revision} published.`;
        else if (language.usage.refunded_seconds > refundedSeconds) outcome = 'The regeneration failed; its credits were refunded.';
        else return false;
        messages.notice('');
        // The box says how it ended once the table shows the new lines (and their clips).
        void loadLanguage(locale)
          .catch((err) => messages.error(err))
          .finally(() => panel.finished(outcome));
        return true;
      },
    });
  }

  for (const locale of locales) {
    const panel = createRegeneratePanel({
      locale,
      api,
      projectId,
      // The quote is shown whatever it is; no regeneration can bill more than the whole source.
      ceilingSeconds: () => Math.max(1, Math.ceil(project.source.duration_seconds ?? 1)),
      onCommitted: (from) => awaitRegeneration(locale, panel, from),
      onError: (err) => messages.error(err),
    });
    panels.set(locale, panel);
  }
  elements.languages.replaceChildren(...[...panels.values()].map((panel) => panel.element));
  showProject(project);
  // The speakers first: once the lines show, the page is whole (and shown at once).
  await speakers.load();
  await loadLanguages();
  elements.editor.hidden = false;
  messages.notice('');
}
