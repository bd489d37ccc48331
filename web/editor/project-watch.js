// Watching the project while work runs, as the typed client's projectPoller does
// (docs/design.md#conditional-get): each GET sends the last ETag in If-None-Match, so an
// unchanged project costs a 304 and no body, and waits the project's own poll_after_seconds
// between asks. A finished project says 0; a regeneration runs on a completed language, so
// the watch then asks every FALLBACK_SECONDS until `done` says what it waits for has happened.

const FALLBACK_SECONDS = 2;

export function watchProject({ api, projectId, onProject, done, onError }) {
  let etag = null;
  let project = null;
  let timer = null;
  let stopped = false;

  async function tick() {
    if (stopped) return;
    try {
      const answer = await api.getProject(projectId, etag);
      if (answer.data) {
        project = answer.data;
        etag = answer.etag;
        onProject(project);
      }
      if (project && done(project)) return;
    } catch (err) {
      onError(err);
    }
    if (stopped) return;
    const seconds = project?.progress?.poll_after_seconds || FALLBACK_SECONDS;
    timer = setTimeout(tick, seconds * 1000);
  }

  void tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
