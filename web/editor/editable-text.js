// A text the customer edits in place: a labelled textarea saved when it loses focus or on Enter
// (Shift+Enter for a new line), put back on Escape. A save the API refuses puts the saved words
// back; the caller shows the API's message. `singleLine` makes it an input (a name, not a line).

export function createEditableText({ label, text, save, singleLine = false }) {
  const element = document.createElement(singleLine ? 'input' : 'textarea');
  element.setAttribute('aria-label', label);
  if (singleLine) element.spellcheck = false;
  else element.rows = 2;
  element.value = text;
  let saved = text;

  element.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      element.blur();
    } else if (event.key === 'Escape') {
      element.value = saved;
      element.blur();
    }
  });

  element.addEventListener('blur', async () => {
    const wanted = element.value.trim();
    if (wanted === saved) {
      element.value = saved;
      return;
    }
    element.setAttribute('aria-busy', 'true');
    try {
      saved = await save(wanted);
      element.value = saved;
    } catch {
      element.value = saved;
    } finally {
      element.removeAttribute('aria-busy');
    }
  });

  return {
    element,
    /** New words from the API; a field being edited keeps the customer's words. */
    setText(next) {
      saved = next;
      if (document.activeElement !== element) element.value = next;
    },
  };
}
