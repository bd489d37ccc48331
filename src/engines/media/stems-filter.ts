import { filterValue } from './filter-escape';
import type { MasterSpec } from './media-engine';

// The master of a dub (docs/audio.md#normalization): one program gain on the dialog bus and on
// the background bus alike (a limiter on the dialog bus alone when the gain would put the peaks
// over the ceiling), each bus written as its stem and the two summed into the mix. Because the
// mix is the sum of the very samples the stems hold, dialog + background = mix within rounding.
// The same chain masters a whole timeline and a span of it (a regeneration's splice), so a span
// is mastered exactly as the whole was, with the gain the revision recorded.

/** The mix as every published file takes it: float, so the stems and the mix round alike. */
const FLOAT = 'aformat=sample_fmts=flt';
/** The mix's amix: never divided by its inputs, as long as the first (the dialog bus). */
const SUM = 'amix=inputs=2:duration=first:dropout_transition=0:normalize=0';

export interface MasterChain {
  graph: string;
  dialog: string;
  background: string;
  /** One label per mix file, in order. */
  mixes: string[];
}

/**
 * The master from `dialogIn` and `backgroundIn` (graph labels), with `mixCopies` labels of the mix
 * to map to files and a copy of the mix measured by ebur128: its summary on stderr, and its figures
 * of every 100 ms frame printed to `framesFile` (what a regeneration's splice measures again,
 * docs/audio.md#regenerations).
 */
export function masterChain(dialogIn: string, backgroundIn: string, master: MasterSpec, mixCopies: number, framesFile: string): MasterChain {
  const gain = master.gainDb !== 0 ? `,volume=${master.gainDb.toFixed(2)}dB:precision=float` : '';
  const limiter = master.limiter
    ? // latency=1: the limiter's look-ahead is taken back out, so the dialog stays on its samples;
      // level=0: no make-up gain, the limit is a ceiling and nothing else.
      `,alimiter=limit=${dbToLinear(master.limiter.limitDbfs).toFixed(6)}:attack=${master.limiter.attackMs}:release=${master.limiter.releaseMs}:level=0:latency=1,${FLOAT}`
    : '';
  const copies = mixCopies + 1;
  const mixes = Array.from({ length: copies }, (_, i) => `[mix${i}]`);
  const chains = [
    `${dialogIn}${FLOAT}${gain}${limiter},asplit=2[dstem][dsum]`,
    `${backgroundIn}${FLOAT}${gain},asplit=2[bstem][bsum]`,
    `[dsum][bsum]${SUM},${FLOAT}${copies > 1 ? `,asplit=${copies}` : ''}${mixes.join('')}`,
  ];
  chains.push(`${mixes[copies - 1]}${measureFrames('peak=true', framesFile)},anullsink`);
  return { graph: chains.join(';\n'), dialog: '[dstem]', background: '[bstem]', mixes: mixes.slice(0, mixCopies) };
}

/**
 * The two buses of pass one, each to a float file, and their sum measured: what the program gain
 * is worked out from (docs/audio.md#normalization). Its peak is the sample peak: the true peak's
 * 4× oversampling cost a second per 10 minutes, and the master measures the true peak anyway.
 */
export function busesChain(dialogIn: string, backgroundIn: string): { graph: string; dialog: string; background: string } {
  const chains = [`${dialogIn}${FLOAT},asplit=2[dbus][dsum]`, `${backgroundIn}${FLOAT},asplit=2[bbus][bsum]`, `[dsum][bsum]${SUM},ebur128=peak=sample:framelog=verbose,anullsink`];
  return { graph: chains.join(';\n'), dialog: '[dbus]', background: '[bbus]' };
}

/** ebur128 (its summary on stderr) with every 100 ms frame's figures printed to `file`; `framelog=verbose` keeps them out of the log. */
export const measureFrames = (peak: 'peak=true' | 'peak=none', file: string) => `ebur128=${peak}:framelog=verbose:metadata=1,ametadata=mode=print:file=${filterValue(file)}`;

export const dbToLinear = (db: number) => Math.pow(10, db / 20);
