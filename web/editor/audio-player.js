// Listening while editing: a source segment plays exactly its own stretch of the source speech
// (from start_seconds, paused at end_seconds), a line plays its dubbed clip whole. One sound at
// a time: starting one stops the other. The links are short-lived signed URLs; one that fails
// to load (expired) is reported through `onLinkFailed`, so the page can fetch fresh ones. A
// voice's sample plays whole on an element of its own: its link is the API's (a redirect to the
// sample), never stale, so one that fails is the sample missing and its play() says so.

/** How close to the end a timer may fire early before it waits once more. */
const END_TOLERANCE_SECONDS = 0.02;

export function createAudioPlayer({ sourceElement, clipElement, sampleElement, onLinkFailed }) {
  let stopTimer = null;
  let stopAt = null;

  const clearStop = () => {
    clearTimeout(stopTimer);
    stopTimer = null;
    stopAt = null;
  };

  const stopAll = () => {
    clearStop();
    sourceElement.pause();
    clipElement.pause();
    sampleElement?.pause();
  };

  /** Pauses the source at `stopAt`: a timer for precision, `timeupdate` (4 Hz) as a backstop. */
  const scheduleStop = () => {
    clearTimeout(stopTimer);
    if (stopAt === null) return;
    const left = stopAt - sourceElement.currentTime;
    if (left <= END_TOLERANCE_SECONDS) {
      clearStop();
      sourceElement.pause();
      return;
    }
    stopTimer = setTimeout(scheduleStop, (left * 1000) / (sourceElement.playbackRate || 1));
  };
  sourceElement.addEventListener('playing', scheduleStop);
  sourceElement.addEventListener('timeupdate', () => {
    if (stopAt !== null && sourceElement.currentTime >= stopAt) scheduleStop();
  });

  for (const element of [sourceElement, clipElement]) {
    element.addEventListener('error', () => {
      if (element.getAttribute('src')) onLinkFailed?.();
    });
  }

  /** Resolves once the element knows the file's length, so currentTime can be set. */
  const metadataOf = (element, url) =>
    new Promise((resolve, reject) => {
      if (element.getAttribute('src') === url && element.readyState >= HTMLMediaElement.HAVE_METADATA) return resolve();
      const settle = (failed) => {
        element.removeEventListener('loadedmetadata', loaded);
        element.removeEventListener('error', broken);
        if (failed) reject(new Error('The audio could not be loaded; press play again.'));
        else resolve();
      };
      const loaded = () => settle(false);
      const broken = () => settle(true);
      element.addEventListener('loadedmetadata', loaded);
      element.addEventListener('error', broken);
      if (element.getAttribute('src') !== url) element.src = url;
      else element.load();
    });

  return {
    async playSegment(url, startSeconds, endSeconds) {
      stopAll();
      await metadataOf(sourceElement, url);
      sourceElement.currentTime = startSeconds;
      stopAt = endSeconds;
      await sourceElement.play();
    },
    async playClip(url) {
      stopAll();
      if (clipElement.getAttribute('src') !== url) clipElement.src = url;
      clipElement.currentTime = 0;
      await clipElement.play();
    },
    async playSample(url) {
      stopAll();
      if (sampleElement.getAttribute('src') !== url) sampleElement.src = url;
      sampleElement.currentTime = 0;
      try {
        await sampleElement.play();
      } catch (err) {
        // Stopped for another sound before it started: nothing went wrong.
        if (err?.name === 'AbortError') return;
        throw new Error("The sample could not be played: each voice's sample is rendered once a worker starts. Try again in a moment.");
      }
    },
    stop: stopAll,
  };
}
