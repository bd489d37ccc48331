// The page's two message lines: what is happening (a polite live region) and what went wrong
// (an alert), the latter in the API's own words.

export function createMessages(noticeElement, errorElement) {
  const messages = {
    notice(text) {
      noticeElement.textContent = text;
    },
    error(err) {
      errorElement.textContent = typeof err === 'string' ? err : err.message;
    },
    clearError() {
      errorElement.textContent = '';
    },
    /** Wraps a save: shows the API's refusal in its own words and rethrows, so the control puts its value back. */
    saving(work) {
      return async (...args) => {
        messages.clearError();
        try {
          return await work(...args);
        } catch (err) {
          messages.error(err);
          throw err;
        }
      };
    },
  };
  return messages;
}
