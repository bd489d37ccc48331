// The languages an apertium mode translates between: 'eng-spa' → en → es, 'es-pt_BR' → es → pt,
// 'eng-cat_valencia' → en → ca. apertium names languages with ISO 639-3 or 639-1 codes; the
// translator's own rules key on 639-1.

const ISO_639_1: Record<string, string> = { eng: 'en', spa: 'es', cat: 'ca', por: 'pt', ita: 'it', fra: 'fr', glg: 'gl', epo: 'eo', oci: 'oc' };

const language = (code: string) => {
  const bare = code.split('_')[0]!.toLowerCase();
  return ISO_639_1[bare] ?? bare;
};

export function modeSource(mode: string): string {
  return language(mode.split('-')[0] ?? '');
}

export function modeTarget(mode: string): string {
  return language(mode.split('-')[1] ?? '');
}
