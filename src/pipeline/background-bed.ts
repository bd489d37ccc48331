import type { TimelineSpec } from '../engines/media/media-engine';
import type { Stretch } from '../engines/media/duck-envelope';
import type { BackgroundMode } from '../shared/background-mode';
import { BACKGROUND_VOLUME, timelineBackground, type RecordedDucking } from './dub-timeline';

// Which background a dub is mixed over and how loud (docs/background.md): the original soundtrack
// at BACKGROUND_VOLUME, ducked under speech in `duck`; or the customer's own music-and-effects
// track at full level, never ducked and with its centre kept (it holds no dialog to hide:
// docs/background.md#your-own-music-and-effects-track). Shared by the whole render and the splice
// of a regeneration, so both lay the same bed, and the splice can tell a revision mixed otherwise.

/** A music-and-effects track plays as delivered: mixed for the film, it needs no lowering. */
export const TRACK_VOLUME = 1;

export interface BedChoice {
  background: BackgroundMode;
  /** The project has its own music-and-effects track (stored as sourceKeys.background in the original's place). */
  backgroundTrack?: boolean;
}

/** The background's gain under the dub, as the revision's record keeps it (`backgroundVolume`). */
export const bedVolume = (choice: BedChoice): number => (choice.backgroundTrack ? TRACK_VOLUME : BACKGROUND_VOLUME);

/** Whether the background is lowered under each dubbed sentence: `duck` over the original only. */
export const bedDucks = (choice: BedChoice): boolean => choice.background === 'duck' && !choice.backgroundTrack;

/** The timeline's background at `volume` (the recorded one, for a span mixed again), ducked as `ducking` says. */
export function bedBackground(file: string, volume: number, ducking: RecordedDucking | undefined, speech: readonly Stretch[]): NonNullable<TimelineSpec['background']> {
  return { ...timelineBackground(file, ducking, speech), volume };
}
