import { createEditableText } from './editable-text.js';
import { formatSeconds } from './format.js';
import { createSpeakerCell } from './speaker-cell.js';
import { syncFlag } from './sync-badge.js';

// One row per source segment (docs/editing.md#the-editor): its time with a button that plays
// exactly that stretch of the source, its text, and per language the line's text, its status
// and a button that plays the line's dubbed clip, with a QC badge when its captions break a
// timed-text rule (caption-qc.js) and a sync badge when it was sped up past the threshold or ran
// into the next line (sync-badge.js). Rows are built once per transcript; a
// language's lines are updated in place, so a field being edited keeps its focus. With
// `moveSegment`, a column shows each segment's speaker, which can be changed there.

const STATUS_WORDS = { current: 'current', stale: 'stale', edited: 'edited' };

export function createSegmentTable(table, { locales, player, saveSource, saveLine, moveSegment, onError }) {
  const head = table.tHead.rows[0];
  const body = table.tBodies[0];
  /** Source segment id → its row's parts; lines of no source segment get rows of their own. */
  const rows = new Map();
  let sourceAudioUrl = null;
  let speakers = [];
  /** Locale → the tempo its lines are flagged past (its `sync.sped_up_tempo`). */
  const syncThresholds = new Map();

  const headerCell = (text) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    return th;
  };
  head.replaceChildren(headerCell('Time'), ...(moveSegment ? [headerCell('Speaker')] : []), headerCell('Source'), ...locales.map((locale) => headerCell(locale)));

  const play = (start) => start.catch((err) => onError(err));

  function lineCell(locale, label) {
    const td = document.createElement('td');
    td.dataset.locale = locale;
    const text = createEditableText({ label, text: '', save: async () => '' });
    const tools = document.createElement('div');
    tools.className = 'line-tools';
    const badge = document.createElement('span');
    badge.className = 'badge';
    const qcBadge = document.createElement('span');
    qcBadge.className = 'badge qc-badge';
    qcBadge.hidden = true;
    const syncBadge = document.createElement('span');
    syncBadge.className = 'badge sync-badge';
    syncBadge.hidden = true;
    const playButton = document.createElement('button');
    playButton.type = 'button';
    playButton.textContent = 'Play dub';
    playButton.setAttribute('aria-label', `Play the ${label}`);
    playButton.disabled = true;
    tools.append(badge, qcBadge, syncBadge, playButton);
    // The cell stays (the columns keep their places); its contents show once it has a line.
    const content = document.createElement('div');
    content.hidden = true;
    content.append(text.element, tools);
    td.append(content);
    return { td, content, text, badge, qcBadge, syncBadge, playButton, line: null };
  }

  function addRow(key, segment, position) {
    const tr = document.createElement('tr');
    tr.dataset.segmentId = key;
    const time = document.createElement('th');
    time.scope = 'row';
    const sourceCell = document.createElement('td');
    sourceCell.className = 'source';
    const parts = { tr, time, sourceCell, segment, languages: new Map() };
    if (segment) {
      const span = `${formatSeconds(segment.start_seconds)}–${formatSeconds(segment.end_seconds)}`;
      const playButton = document.createElement('button');
      playButton.type = 'button';
      playButton.textContent = '▶';
      playButton.setAttribute('aria-label', `Play the source, ${span}`);
      playButton.disabled = sourceAudioUrl === null;
      playButton.addEventListener('click', () => play(player.playSegment(sourceAudioUrl, parts.segment.start_seconds, parts.segment.end_seconds)));
      time.append(playButton, ` ${span}`);
      parts.playButton = playButton;
      const text = createEditableText({ label: `Source text, segment ${position + 1}`, text: segment.text, save: (words) => saveSource(segment.id, words) });
      sourceCell.append(text.element);
    } else {
      time.textContent = '—';
    }
    tr.append(time);
    if (moveSegment) tr.append(speakerCell(parts, position));
    tr.append(sourceCell);
    for (const locale of locales) {
      const cell = lineCell(locale, `${locale} line, segment ${position + 1}`);
      parts.languages.set(locale, cell);
      tr.append(cell.td);
    }
    body.append(tr);
    rows.set(key, parts);
    return parts;
  }

  /** A segment's speaker; a line of no source segment has none to show. */
  function speakerCell(parts, position) {
    if (!parts.segment) return document.createElement('td');
    const move = async (speakerId) => {
      const segment = await moveSegment(parts.segment.id, speakerId);
      parts.segment = { ...parts.segment, speaker_id: segment.speaker_id ?? speakerId };
      return parts.segment.speaker_id;
    };
    parts.speaker = createSpeakerCell({ row: parts.tr, label: `Speaker, segment ${position + 1}`, move });
    parts.speaker.show(speakers, parts.segment.speaker_id);
    return parts.speaker.td;
  }

  /** The line's QC badge: the rules its cues break, the details in its title; hidden when none. */
  function showBreaches(cell, breaches) {
    cell.qcBadge.hidden = !breaches;
    cell.qcBadge.textContent = breaches?.text ?? '';
    cell.qcBadge.title = breaches?.title ?? '';
    if (breaches) cell.qcBadge.dataset.rules = breaches.rules.join(' ');
    else delete cell.qcBadge.dataset.rules;
  }

  function showLine(locale, cell, line) {
    cell.content.hidden = false;
    if (!cell.line || cell.line.id !== line.id) {
      // A new line (a regeneration rebuilt the language): its own save and play.
      const text = createEditableText({ label: cell.text.element.getAttribute('aria-label'), text: line.text, save: (words) => saveLine(locale, line.id, words) });
      cell.text.element.replaceWith(text.element);
      cell.text = text;
      const playButton = cell.playButton.cloneNode(true);
      playButton.addEventListener('click', () => play(player.playClip(cell.line.clip_url)));
      cell.playButton.replaceWith(playButton);
      cell.playButton = playButton;
    } else {
      cell.text.setText(line.text);
    }
    cell.line = line;
    cell.td.dataset.lineId = line.id;
    cell.badge.dataset.status = line.status;
    cell.badge.textContent = STATUS_WORDS[line.status] ?? line.status;
    cell.playButton.disabled = !line.clip_url;
    showSync(cell, syncFlag(line.sync, syncThresholds.get(locale)));
  }

  /** The line's sync badge (sync-badge.js): too fast or overlapping, the figures in its title; hidden when neither. */
  function showSync(cell, flag) {
    cell.syncBadge.hidden = !flag;
    cell.syncBadge.textContent = flag?.text ?? '';
    cell.syncBadge.title = flag?.title ?? '';
    if (flag) cell.syncBadge.dataset.flags = flag.flags.join(' ');
    else delete cell.syncBadge.dataset.flags;
  }

  return {
    /** The source segments, and the link to the speech they are cut from (null: none to play). */
    showTranscript(transcript) {
      sourceAudioUrl = transcript.source_audio_url;
      body.replaceChildren();
      rows.clear();
      transcript.segments.forEach((segment, position) => addRow(segment.id, segment, position));
    },
    /** The project's speakers (GET …/speakers), for each segment's speaker cell. */
    showSpeakers(next) {
      speakers = next;
      for (const parts of rows.values()) parts.speaker?.show(speakers, parts.segment.speaker_id);
    },
    /** Fresh links after the old ones expired: the same segments, new URLs. */
    refreshSourceAudio(url) {
      sourceAudioUrl = url;
      for (const parts of rows.values()) if (parts.playButton) parts.playButton.disabled = url === null;
    },
    /**
     * One language's lines, each in the row of its source segment; `breaches`: line id → its QC
     * badge (caption-qc.js); `sync`: the language's sync totals, for the threshold (sync-badge.js).
     */
    showLanguage(locale, lines, breaches = new Map(), sync = null) {
      if (sync) syncThresholds.set(locale, sync.sped_up_tempo);
      const seen = new Set();
      for (const line of lines) {
        const key = line.source_segment_id && rows.has(line.source_segment_id) ? line.source_segment_id : `line:${line.id}`;
        const parts = rows.get(key) ?? addRow(key, null, rows.size);
        const cell = parts.languages.get(locale);
        if (cell) {
          showLine(locale, cell, line);
          showBreaches(cell, breaches.get(line.id));
        }
        seen.add(key);
      }
      // A line no longer there (a regeneration dropped it): its cell empties.
      for (const [key, parts] of rows) {
        const cell = parts.languages.get(locale);
        if (cell && !seen.has(key)) {
          cell.content.hidden = true;
          cell.line = null;
        }
      }
    },
    /** A line as a PATCH answered it. */
    showEditedLine(locale, line) {
      for (const parts of rows.values()) {
        const cell = parts.languages.get(locale);
        if (cell?.line?.id === line.id) showLine(locale, cell, line);
      }
    },
  };
}
