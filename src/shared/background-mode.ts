// What a dub is mixed over (docs/background.md): the original soundtrack lowered under each
// dubbed sentence (`duck`, the default), the whole original at a fixed low level (`keep`, the
// behaviour before modes existed), or nothing (`drop`). Pure, so the API's schema and the worker's
// mix name the same modes.

export const BACKGROUND_MODES = ['duck', 'keep', 'drop'] as const;

export type BackgroundMode = (typeof BACKGROUND_MODES)[number];

/** A new project's mode when the create names none. */
export const DEFAULT_BACKGROUND_MODE: BackgroundMode = 'duck';
