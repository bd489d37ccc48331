import { speakerDot, speakerHue } from './speaker-colours.js';

// The speaker of one source segment, in its row (docs/editing.md#speakers): a dot in the
// speaker's colour (the row takes it too) and the project's speakers to give the segment to
// another. A choice is saved at once; a refusal puts the old speaker back (the caller shows why).

export function createSpeakerCell({ row, label, move }) {
  const td = document.createElement('td');
  td.className = 'speaker';
  const select = document.createElement('select');
  select.setAttribute('aria-label', label);
  td.append(speakerDot(), select);
  let speakers = [];
  let current = null;
  let saving = false;

  function render() {
    const options = speakers.map((speaker) => new Option(speaker.label, speaker.id));
    const speaker = speakers.find((s) => s.id === current);
    if (!speaker) options.unshift(new Option('—', ''));
    select.replaceChildren(...options);
    select.value = speaker ? speaker.id : '';
    select.disabled = saving || speakers.length < (speaker ? 2 : 1);
    if (speaker) {
      row.dataset.speakerId = speaker.id;
      row.dataset.speakerHue = speakerHue(speaker);
    } else {
      delete row.dataset.speakerId;
      delete row.dataset.speakerHue;
    }
  }

  select.addEventListener('change', async () => {
    const wanted = select.value;
    if (!wanted || wanted === current) return;
    saving = true;
    render();
    select.value = wanted;
    try {
      current = await move(wanted);
    } catch {
      // The old speaker stays; the caller has shown the API's words.
    } finally {
      saving = false;
      render();
    }
  });

  return {
    td,
    /** The project's speakers and this segment's (null: none). */
    show(nextSpeakers, speakerId) {
      speakers = nextSpeakers;
      current = speakerId ?? null;
      render();
    },
  };
}
