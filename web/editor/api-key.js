// The caller's API key: kept in this tab's session storage (gone when the tab closes), never in a
// cookie or the server's logs. Scripts may hand it over in the URL fragment (`#key=…`), which
// browsers never send to the server; the page takes it and removes it from the address bar.

const STORAGE_NAME = 'dubbing-editor-api-key';

/** Moves `#key=…` from the address into session storage; true when there was one. */
export function takeKeyFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const key = fragment.get('key');
  if (!key) return false;
  storeKey(key);
  fragment.delete('key');
  const rest = fragment.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  return true;
}

export function storedKey() {
  return sessionStorage.getItem(STORAGE_NAME);
}

export function storeKey(key) {
  sessionStorage.setItem(STORAGE_NAME, key.trim());
}

export function forgetKey() {
  sessionStorage.removeItem(STORAGE_NAME);
}
