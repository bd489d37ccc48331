// drawtext neither wraps nor shrinks text, so a long localized title would run off the frame.
// This breaks it into lines that fit, by an average glyph width, and caps the line count.

export interface TitleLayout {
  lines: string[];
  fontSize: number;
}

/** Average advance of a DejaVu Sans glyph, as a fraction of the font size. */
const AVERAGE_GLYPH_WIDTH = 0.58;

export function layoutTitle(title: string, boxWidth: number, fontSize: number, maxLines = 3): TitleLayout {
  // Control characters (tabs, CR, newlines from user input) would draw as boxes or break layout.
  const clean = title
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const perLine = Math.max(8, Math.floor(boxWidth / (fontSize * AVERAGE_GLYPH_WIDTH)));
  const lines: string[] = [];
  let current = '';
  for (const word of clean.split(' ').filter(Boolean)) {
    // A single word longer than a line (a URL, a German compound) is hard-split.
    const chunks = Array.from(word).length > perLine ? splitChars(word, perLine) : [word];
    for (const chunk of chunks) {
      const candidate = current ? `${current} ${chunk}` : chunk;
      if (Array.from(candidate).length <= perLine) current = candidate;
      else {
        if (current) lines.push(current);
        current = chunk;
      }
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    const last = Array.from(kept[maxLines - 1]!);
    kept[maxLines - 1] = `${last
      .slice(0, Math.max(0, perLine - 1))
      .join('')
      .trimEnd()}…`;
    return { lines: kept, fontSize };
  }
  return { lines, fontSize };
}

function splitChars(word: string, size: number): string[] {
  const chars = Array.from(word);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
