// The Data API reports contentDetails.duration as an ISO 8601 duration: PT#M#S, PT#H#M#S, and
// P#DT#H#M#S (P#W#DT… for very long streams). Calendar units (years, months) have no fixed
// length in seconds, so a value using them is treated as malformed rather than guessed at.
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

/** Seconds in an ISO 8601 duration ('PT1H2M3S' → 3723), or null when it is not one we can read. */
export function parseIso8601Duration(value: string): number | null {
  const match = DURATION.exec(value);
  if (!match) return null;
  const [, weeks, days, hours, minutes, seconds] = match;
  // 'P' and 'PT' alone match the pattern but carry no component: ISO 8601 requires at least one.
  if ([weeks, days, hours, minutes, seconds].every((part) => part === undefined)) return null;
  if (value.includes('T') && [hours, minutes, seconds].every((part) => part === undefined)) return null;
  const number = (part: string | undefined) => (part === undefined ? 0 : Number(part.replace(',', '.')));
  return number(weeks) * 604_800 + number(days) * 86_400 + number(hours) * 3600 + number(minutes) * 60 + number(seconds);
}
