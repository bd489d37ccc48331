// The page's two message lines: what is happening (a polite live region) and what went wrong
// (an alert), the latter in the API's own words.

export function createMessages(noticeElement, errorElement) {
  return {
    notice(text) {
      noticeElement.textContent = text;
    },
    error(err) {
      errorElement.textContent = typeof err === 'string' ? err : err.message;
    },
    clearError() {
      errorElement.textContent = '';
    },
  };
}
