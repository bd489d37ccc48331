import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LOCALE_CATALOG } from '../src/engines/locale-catalog';
import { ApertiumTranslator } from '../src/engines/translate/apertium-translator';
import { joinSegments, splitSegments } from '../src/engines/translate/segment-batch';
import type { UntranslatedWords } from '../src/engines/translate/translator';
import { REFERENCE_FILES, referenceSentences, scriptSentences } from './lib/benchmark-script';
import { corpusChrf } from './lib/chrf';
import { runCommand } from './lib/commands';
import { loadAverage } from './lib/proc';
import { routeCandidates, routeName } from './lib/route-candidates';
import { chooseRoute } from './lib/route-choice';
import { codeVersion, log, runBenchmark } from './lib/services';
import { fmt, formatTable } from './lib/stats';

// npm run bench:routes [-- --targets fr_fr,it_it]
//
// chrF of every installed apertium route from English per target (direct, via Spanish, via
// Catalan: bench/lib/route-candidates.ts), on the PERFECT English of the benchmark script
// (bench/script/en.txt) against the project's own reference translations, so the route is judged
// apart from recognition errors. Two figures per route: apertium alone (`apertium -u`, step by
// step, as the service called it before issue 29) and the service's translator
// (src/engines/translate/: English pre-processing, marks counted and removed, post-processing).
// Beside them the untranslated words the service counted and, of those, pivot-language words.
// Goal: per target, the catalog's first installed route (src/engines/locale-catalog.ts, the one a
// worker serves) is the one bench/lib/route-choice.ts chooses (the best chrF; a pivot must beat
// the direct route by 1 point); the exit code is 1 otherwise.

const installedModes = async () =>
  new Set(
    (await runCommand('apertium', ['-l'])).stdout
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );

/** The route as plain apertium runs it: each mode with -u, the whole script in one batch. */
async function apertiumAlone(sentences: string[], route: readonly string[]): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-routes-'));
  try {
    let current = sentences;
    for (const mode of route) {
      const file = path.join(dir, `${mode}.txt`);
      await writeFile(file, joinSegments(current), 'utf8');
      const out = await runCommand('apertium', ['-u', mode, file], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
      current = splitSegments(out.stdout.toString('utf8'));
    }
    return current;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface RouteFigure {
  locale: string;
  route: string[];
  plain: number;
  service: number;
  untranslated: UntranslatedWords;
  seconds: number;
}

async function main(): Promise<number> {
  const at = process.argv.indexOf('--targets');
  const targets = at >= 0 ? (process.argv[at + 1] ?? '').split(',').filter(Boolean) : Object.keys(REFERENCE_FILES);
  const english = scriptSentences();
  const modes = await installedModes();
  const translator = new ApertiumTranslator();
  const figures: RouteFigure[] = [];
  for (const locale of targets) {
    const references = referenceSentences(locale);
    if (!references) throw new Error(`no reference translation for ${locale}: bench/script has ${Object.keys(REFERENCE_FILES).join(', ')}`);
    for (const route of routeCandidates(locale)) {
      const missing = route.filter((m) => !modes.has(m));
      if (missing.length > 0) {
        log(`${locale}: ${routeName(route)} skipped, not installed: ${missing.join(', ')}`);
        continue;
      }
      const plain = corpusChrf(await apertiumAlone(english, route), references);
      let untranslated: UntranslatedWords = { words: 0, pivotWords: 0, examples: [] };
      const started = performance.now();
      const translated = await translator.translate(english, route, { onUntranslated: (u) => (untranslated = u) });
      const seconds = (performance.now() - started) / 1000;
      figures.push({ locale, route, plain, service: corpusChrf(translated, references), untranslated, seconds });
      log(`${locale} ${routeName(route)}: chrF ${fmt(plain, 1)} → ${fmt(figures[figures.length - 1]!.service, 1)}`);
    }
  }

  console.log(`\n== bench:routes — ${new Date().toISOString()}, load average ${loadAverage()} ==`);
  console.log(`code under test: ${codeVersion()}`);
  console.log(`${english.length} English sentences (bench/script/en.txt), chrF2 (character 6-grams, sacrebleu's default) against bench/script/<lang>.txt`);
  let pass = true;
  const rows = figures.map((f) => {
    const chosen = chooseRoute(figures.filter((g) => g.locale === f.locale).map((g) => ({ ...g, chrf: g.service })));
    const isChosen = chosen !== undefined && routeName(chosen.route) === routeName(f.route);
    const served = (LOCALE_CATALOG.find((l) => l.locale === f.locale)?.fromEnglish ?? []).find((r) => r.every((m) => modes.has(m)));
    const isServed = served !== undefined && routeName(served) === routeName(f.route);
    if (isServed && !isChosen) pass = false;
    return [
      f.locale,
      routeName(f.route),
      fmt(f.plain, 1),
      fmt(f.service, 1),
      String(f.untranslated.words),
      f.route.length > 1 ? String(f.untranslated.pivotWords) : '',
      fmt(f.seconds, 2),
      isChosen ? 'chosen' : '',
      isServed ? (isChosen ? 'served: PASS' : 'served: FAIL') : '',
      f.untranslated.examples.slice(0, 6).join(' '),
    ];
  });
  console.log(formatTable(['target', 'route', 'chrF apertium -u', 'chrF service', 'untranslated', 'pivot words', 's', 'choice', 'catalog', 'untranslated words (first 6)'], rows));
  return pass ? 0 : 1;
}

runBenchmark(main);
