import { plural } from './format.js';
import { newIdempotencyKey } from './idempotency-key.js';

// One language's box: its revision, and Regenerate, a paid call made like every other
// (docs/editing.md#regenerate): a quote first (preview_only, which charges and changes nothing),
// then, once the customer confirms it, the same call with preview_only false, the quoted
// seconds as the ceiling (so it never charges more than was shown) and a fresh Idempotency-Key.
// The key is kept until the API answers, so pressing Confirm again after a lost connection
// repeats the same request rather than paying twice.

export function createRegeneratePanel({ locale, api, projectId, ceilingSeconds, onCommitted, onError }) {
  const section = document.createElement('section');
  section.className = 'language';
  section.dataset.locale = locale;
  const heading = document.createElement('h2');
  heading.textContent = locale;
  const revision = document.createElement('p');
  revision.className = 'revision';
  const regenerate = document.createElement('button');
  regenerate.type = 'button';
  regenerate.textContent = 'Regenerate…';
  regenerate.setAttribute('aria-label', `Regenerate ${locale}: see the quote first`);
  const quote = document.createElement('div');
  quote.className = 'quote';
  quote.hidden = true;
  const quoteText = document.createElement('p');
  quoteText.className = 'quote-text';
  const confirm = document.createElement('button');
  confirm.type = 'button';
  confirm.className = 'primary';
  confirm.textContent = 'Confirm and regenerate';
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  quote.append(quoteText, confirm, ' ', cancel);
  const progress = document.createElement('p');
  progress.className = 'progress';
  progress.setAttribute('role', 'status');
  section.append(heading, revision, regenerate, quote, progress);

  let quoted = null;
  let pendingKey = null;
  let busy = false;

  const setBusy = (value) => {
    busy = value;
    regenerate.disabled = value;
    confirm.disabled = value;
  };

  const closeQuote = () => {
    quote.hidden = true;
    quoted = null;
    pendingKey = null;
  };

  regenerate.addEventListener('click', async () => {
    if (busy) return;
    setBusy(true);
    closeQuote();
    progress.textContent = 'Getting the quote…';
    try {
      const { regeneration } = await api.regenerate(projectId, locale, { max_billable_seconds: ceilingSeconds(), preview_only: true });
      if (regeneration.segments === 0) {
        progress.textContent = 'Nothing to regenerate: every line is as the published revision plays it.';
        return;
      }
      quoted = regeneration;
      quoteText.textContent = `${plural(regeneration.segments, 'segment')} will be dubbed again: ${plural(regeneration.billable_seconds, 'second')}, ${plural(regeneration.credits, 'credit')}.`;
      progress.textContent = '';
      quote.hidden = false;
      confirm.focus();
    } catch (err) {
      progress.textContent = '';
      onError(err);
    } finally {
      setBusy(false);
    }
  });

  cancel.addEventListener('click', () => {
    closeQuote();
    progress.textContent = '';
    regenerate.focus();
  });

  confirm.addEventListener('click', async () => {
    if (busy || !quoted) return;
    setBusy(true);
    pendingKey ??= newIdempotencyKey();
    progress.textContent = 'Committing…';
    try {
      const { regeneration, project } = await api.regenerate(projectId, locale, { max_billable_seconds: quoted.billable_seconds, preview_only: false }, pendingKey);
      const language = project.languages.find((l) => l.locale === locale);
      closeQuote();
      if (!regeneration.within_limit) {
        progress.textContent = `The quote has changed to ${plural(regeneration.billable_seconds, 'second')}; nothing was charged. Regenerate again to see it.`;
      } else if (regeneration.charged_now_seconds === 0) {
        progress.textContent = 'Nothing to regenerate; nothing was charged.';
      } else {
        progress.textContent = `Regenerating: ${plural(regeneration.credits, 'credit')} charged. Revision ${language.revision + 1} is on its way…`;
        regenerate.disabled = true;
        onCommitted({ fromRevision: language.revision, refundedSeconds: language.usage.refunded_seconds });
        return;
      }
    } catch (err) {
      progress.textContent = '';
      onError(err);
    }
    setBusy(false);
  });

  return {
    element: section,
    /** The language as the project shows it. */
    showLanguage(language) {
      revision.textContent = language.revision ? `Revision ${language.revision} · ${language.status}` : language.status;
      section.dataset.revision = String(language.revision ?? '');
    },
    /** The regeneration ended: published (the new revision) or failed (refunded). */
    finished(text) {
      progress.textContent = text;
      setBusy(false);
    },
  };
}
