// How times and amounts read on the page.

/** 3.1 → "0:03.1"; 75.25 → "1:15.3". */
export function formatSeconds(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = (seconds - minutes * 60).toFixed(1).padStart(4, '0');
  return `${minutes}:${rest}`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}
