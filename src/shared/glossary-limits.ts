// The bounds of a glossary (docs/glossaries.md#limits): what the API accepts, the typed client
// documents and the engines may rely on.

export const MAX_GLOSSARY_ENTRIES = 1000;
export const MAX_GLOSSARY_TERM = 100;
/** A forced translation or a pronunciation, in characters. */
export const MAX_GLOSSARY_RENDERING = 200;
export const MAX_GLOSSARY_NAME = 100;
/** Locales one entry may name in `translations` or in `pronunciations`. */
export const MAX_GLOSSARY_LOCALES = 50;
