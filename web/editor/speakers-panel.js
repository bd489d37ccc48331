import { createEditableText } from './editable-text.js';
import { plural } from './format.js';
import { speakerDot, speakerHue } from './speaker-colours.js';
import { createVoicePicker } from './voice-picker.js';

// The project's speakers (docs/editing.md#speakers), one card each: its colour, its name
// (editable: saved on Enter or when the field loses focus, Escape puts it back), how many lines it
// says, for how long and at what pitch, and its voice in each target language. Cards are kept
// across reloads and updated in place, so a name being typed keeps its focus.

const pitchOf = (speaker) => (speaker.median_pitch_hz === null ? 'pitch not measured' : `${Math.round(speaker.median_pitch_hz)} Hz`);

export function createSpeakersPanel(section, { locales, player, rename, chooseVoice, onError }) {
  const heading = document.createElement('h2');
  heading.textContent = 'Speakers';
  const list = document.createElement('div');
  list.className = 'speaker-cards';
  section.replaceChildren(heading, list);
  /** Speaker id → its card's parts. */
  const cards = new Map();
  /** Locale → the voices it offers. */
  const offered = new Map();

  function createCard(speaker) {
    const element = document.createElement('div');
    element.className = 'speaker-card';
    element.dataset.speakerId = speaker.id;
    const title = document.createElement('div');
    title.className = 'speaker-title';
    const label = createEditableText({ label: `Name of ${speaker.label}`, text: speaker.label, singleLine: true, save: (words) => rename(speaker.id, words) });
    label.element.classList.add('speaker-label');
    const stats = document.createElement('span');
    stats.className = 'hint speaker-stats';
    title.append(speakerDot(), label.element, stats);
    const pickers = locales.map((locale) =>
      createVoicePicker({ locale, speakerLabel: speaker.label, player, choose: (voiceId) => chooseVoice(speaker.id, locale, voiceId), onError }),
    );
    for (const picker of pickers) if (offered.has(picker.element.dataset.locale)) picker.showOffered(offered.get(picker.element.dataset.locale));
    element.append(title, ...pickers.map((picker) => picker.element));
    return { element, label, stats, pickers };
  }

  return {
    /** One target language's offered voices. */
    showOffered(locale, voices) {
      offered.set(locale, voices);
      for (const card of cards.values()) for (const picker of card.pickers) if (picker.element.dataset.locale === locale) picker.showOffered(voices);
    },
    /** The speakers as GET …/speakers lists them, in position order. */
    showSpeakers(speakers) {
      const seen = new Set();
      for (const speaker of speakers) {
        const card = cards.get(speaker.id) ?? createCard(speaker);
        cards.set(speaker.id, card);
        seen.add(speaker.id);
        card.element.dataset.speakerHue = speakerHue(speaker);
        card.label.setText(speaker.label);
        card.label.element.setAttribute('aria-label', `Name of ${speaker.label}`);
        card.stats.textContent = `${plural(speaker.segments, 'line')} · ${speaker.speech_seconds.toFixed(1)} s · ${pitchOf(speaker)}`;
        for (const picker of card.pickers) picker.showSpeaker(speaker);
      }
      // A speaker merged into another is gone.
      for (const [id, card] of cards) {
        if (!seen.has(id)) {
          card.element.remove();
          cards.delete(id);
        }
      }
      // Re-placed only when the order changed: moving a card would take the focus from its name.
      const ordered = speakers.map((speaker) => cards.get(speaker.id).element);
      if (ordered.some((element, i) => list.children[i] !== element) || list.children.length !== ordered.length) list.replaceChildren(...ordered);
      section.hidden = speakers.length === 0;
    },
  };
}
