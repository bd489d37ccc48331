// One speaker's voice in one language (docs/editing.md#speakers): the voices the language offers
// (GET /v1/dubbing/voices), the speaker's own selected, a button that plays the selected voice's
// sample, and one that makes it the speaker's. Choosing is free; the speaker's lines are dubbed
// with the new voice at the language's next regeneration.

const CHOSEN_BY = { customer: 'your choice', machine: "the service's choice" };

export function createVoicePicker({ locale, speakerLabel, player, choose, onError }) {
  const element = document.createElement('div');
  element.className = 'voice';
  element.dataset.locale = locale;
  const name = document.createElement('span');
  name.className = 'voice-locale';
  name.textContent = locale;
  const select = document.createElement('select');
  const sample = document.createElement('button');
  sample.type = 'button';
  sample.className = 'play-sample';
  sample.textContent = '▶ Sample';
  const use = document.createElement('button');
  use.type = 'button';
  use.className = 'use-voice';
  use.textContent = 'Use this voice';
  const note = document.createElement('span');
  note.className = 'hint';
  element.append(name, select, sample, use, note);

  let offered = [];
  /** The speaker's voice here: `{ voice, chosen_by, variant }`, or null when it has none yet. */
  let current = null;
  let saving = false;

  const selectedVoice = () => offered.find((voice) => voice.id === select.value);

  function updateButtons() {
    sample.disabled = !selectedVoice();
    use.disabled = saving || !selectedVoice() || select.value === current?.voice;
  }

  function render() {
    const pending = select.value;
    const options = offered.map((voice) => new Option(voice.name, voice.id));
    // An engine variant of an offered voice (more speakers than voices) is no choice of its own.
    if (current && !offered.some((voice) => voice.id === current.voice)) options.unshift(new Option(`${current.voice} (variant)`, current.voice));
    select.replaceChildren(...options);
    // A voice being listened to stays selected through a reload.
    select.value = pending && pending !== (current?.voice ?? '') && options.some((o) => o.value === pending) ? pending : (current?.voice ?? '');
    note.textContent = current ? `${CHOSEN_BY[current.chosen_by] ?? current.chosen_by}${current.variant ? ', a variant: fewer voices than speakers' : ''}` : 'no voice yet';
    updateButtons();
  }

  const setLabels = (label) => {
    select.setAttribute('aria-label', `${label}'s ${locale} voice`);
    sample.setAttribute('aria-label', `Play a sample of the ${locale} voice selected for ${label}`);
    use.setAttribute('aria-label', `Give ${label} the selected ${locale} voice`);
  };
  setLabels(speakerLabel);

  select.addEventListener('change', updateButtons);
  sample.addEventListener('click', () => {
    const voice = selectedVoice();
    if (voice) player.playSample(voice.sample_url).catch((err) => onError(err));
  });
  use.addEventListener('click', async () => {
    const voiceId = select.value;
    saving = true;
    updateButtons();
    try {
      await choose(voiceId);
    } catch {
      // The voice stays as it was; the caller has shown the API's words.
    } finally {
      saving = false;
      updateButtons();
    }
  });

  return {
    element,
    /** The voices the language offers, each with its `sample_url`. */
    showOffered(voices) {
      offered = voices;
      render();
    },
    /** The speaker as the API shows it now. */
    showSpeaker(speaker) {
      current = speaker.voices?.[locale] ?? null;
      setLabels(speaker.label);
      render();
    },
  };
}
