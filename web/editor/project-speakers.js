import { createSpeakersPanel } from './speakers-panel.js';

// The speakers of a project in the editor (docs/editing.md#speakers): reads them and each target
// language's voices, shows them in their panel and in the table's rows (through `onSpeakers`),
// and saves what the customer changes: a name, a voice, a segment given to another speaker. All
// free; a changed voice or speaker makes the lines concerned dubbed again at the language's next
// regeneration (quoted first, in the language's box), so after such a change the lines are read
// again (`onLinesChanged`) and the counts of lines per speaker too.

export function createProjectSpeakers({ api, projectId, locales, player, messages, section, onSpeakers, onLinesChanged }) {
  let speakers = [];
  const labelOf = (speakerId) => speakers.find((s) => s.id === speakerId)?.label ?? speakerId;

  async function reload() {
    speakers = await api.listSpeakers(projectId);
    panel.showSpeakers(speakers);
    onSpeakers(speakers);
  }
  /** Reads again what a change moved; a failed read must not undo the saved change. */
  const afterChange = (...work) => Promise.all(work.map((w) => w())).catch((err) => messages.error(err));

  const saving = messages.saving;

  const rename = saving(async (speakerId, label) => {
    const speaker = await api.updateSpeaker(projectId, speakerId, { label });
    messages.notice(`Renamed to ${speaker.label}.`);
    await afterChange(reload);
    return speaker.label;
  });

  const chooseVoice = saving(async (speakerId, locale, voiceId) => {
    const speaker = await api.updateSpeaker(projectId, speakerId, { voices: { [locale]: voiceId } });
    messages.notice(`${speaker.label} speaks ${locale} with ${speaker.voices[locale]?.voice ?? voiceId} from the next regeneration of ${locale}.`);
    await afterChange(reload, onLinesChanged);
  });

  const moveSegment = saving(async (segmentId, speakerId) => {
    const segment = await api.moveSegment(projectId, segmentId, speakerId);
    messages.notice(`Given to ${labelOf(speakerId)}: its lines are spoken in that voice from the next regeneration.`);
    // Not awaited: the row takes its new speaker first, then the counts and lines follow.
    void afterChange(reload, onLinesChanged);
    return segment;
  });

  const panel = createSpeakersPanel(section, { locales, player, rename, chooseVoice, onError: (err) => messages.error(err) });

  return {
    moveSegment,
    /** The speakers, and the voices of every target language (read once: the fleet's offer changes rarely). */
    async load() {
      const offers = await Promise.all(locales.map(async (locale) => [locale, await api.listVoices(locale)]));
      for (const [locale, voices] of offers) panel.showOffered(locale, voices);
      await reload();
    },
    reload,
  };
}
