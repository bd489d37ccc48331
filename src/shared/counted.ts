// Counts in messages people read ("1 part", "3 parts", never "1 parts"). Shared by the API, the
// activities and the console; pure, so workflow code may import it too.

/** `count` and its noun in the right number: counted(1, 'part') is "1 part", counted(3, 'part') "3 parts". */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
