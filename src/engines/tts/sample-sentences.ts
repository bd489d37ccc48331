// The short sentence each voice's sample speaks (GET /v1/dubbing/voices/{id}/sample), in the
// voice's own language: one sentence per language, so samples of one locale compare like for like.

const SENTENCES: Record<string, string> = {
  en: 'Hello! This is how your video will sound in my voice.',
  es: '¡Hola! Así sonará tu vídeo con mi voz.',
  ca: 'Hola! Així sonarà el teu vídeo amb la meva veu.',
  gl: 'Ola! Así soará o teu vídeo coa miña voz.',
  pt: 'Olá! É assim que o seu vídeo vai soar com a minha voz.',
  it: 'Ciao! Ecco come suonerà il tuo video con la mia voce.',
  fr: 'Bonjour ! Voici comment votre vidéo sonnera avec ma voix.',
  de: 'Hallo! So wird Ihr Video mit meiner Stimme klingen.',
  nl: 'Hallo! Zo klinkt je video met mijn stem.',
};

/** The sample sentence for a locale: its language's, English where none is written yet. */
export function sampleSentence(locale: string): string {
  return SENTENCES[locale.split('_')[0]!] ?? SENTENCES.en!;
}
