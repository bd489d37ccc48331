import { escapeAssLine } from './caption-markup';
import type { Cue } from './captions';

// The captions burned into the dubbed video (docs/video.md#burned-captions), as an ASS script for
// ffmpeg's subtitles filter (libass). Burning the SRT instead would let ffmpeg's SubRip reader
// turn <font>, <b>, … into styling and pass {\an8} on to libass; an ASS event's text is drawn as
// written once its braces and breaks are escaped (caption-markup.ts). The header is the one
// ffmpeg's SubRip reader gives its events (a 384×288 script, a style named Default), so the
// filter's force_style and every plain caption look exactly as they did when the SRT was burned.

const HEADER = [
  '[Script Info]',
  'ScriptType: v4.00+',
  'PlayResX: 384',
  'PlayResY: 288',
  'ScaledBorderAndShadow: yes',
  '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
  'Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
];

/** ASS time: H:MM:SS.cc. ASS counts centiseconds, so a cue moves by at most 5 ms. */
export function assTimestamp(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`caption time must be a finite number >= 0, got ${seconds}`);
  const total = Math.round(seconds * 100);
  const cs = total % 100;
  const s = Math.floor(total / 100) % 60;
  const m = Math.floor(total / 6000) % 60;
  const h = Math.floor(total / 360_000);
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs).padStart(2, '0')}`;
}

export function toBurnedCaptions(cues: readonly Cue[]): string {
  const events = cues.map((cue) => {
    const lines = cue.text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return `Dialogue: 0,${assTimestamp(cue.startSeconds)},${assTimestamp(cue.endSeconds)},Default,,0,0,0,,${lines.map(escapeAssLine).join('\\N')}`;
  });
  return `${[...HEADER, ...events].join('\n')}\n`;
}
