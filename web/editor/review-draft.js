// A reviewer's corrections before they submit (docs/editing.md#reviewers): nothing reaches the
// project until the whole transcript is submitted, so the words typed so far are kept in this
// tab's session storage, per review, and survive a reload or an expired audio link.

const storageName = (projectId) => `dubbing-editor-review-draft:${projectId}`;

export function createReviewDraft(projectId) {
  const read = () => {
    try {
      return JSON.parse(sessionStorage.getItem(storageName(projectId)) ?? '{}');
    } catch {
      return {};
    }
  };
  let words = read();

  return {
    /** The corrected words of a segment, or its own when it has none. */
    textOf: (segment) => words[segment.id] ?? segment.text,
    set(segmentId, text) {
      words = { ...words, [segmentId]: text };
      sessionStorage.setItem(storageName(projectId), JSON.stringify(words));
    },
    /** The whole transcript to submit: every segment, with its corrected words. */
    segmentsOf: (segments) => segments.map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: words[s.id] ?? s.text })),
    changedCount: (segments) => segments.filter((s) => words[s.id] !== undefined && words[s.id] !== s.text).length,
    clear() {
      words = {};
      sessionStorage.removeItem(storageName(projectId));
    },
  };
}
