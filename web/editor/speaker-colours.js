// A speaker's colour (docs/editing.md#speakers): one of ten, by the speaker's position (the order
// of first appearance), so a rename or a line given to another speaker changes no colour. The
// colours themselves are in editor.css (`[data-speaker-hue]`): the page's policy allows no inline
// style.

const HUES = 10;

/** "0" … "9", for a `data-speaker-hue` attribute. */
export function speakerHue(speaker) {
  return String((Math.max(1, speaker.position) - 1) % HUES);
}

/** A dot in the colour of whatever `data-speaker-hue` it sits in. */
export function speakerDot() {
  const dot = document.createElement('span');
  dot.className = 'speaker-dot';
  dot.setAttribute('aria-hidden', 'true');
  return dot;
}
