// What the page shows: the API serves the same page at /editor, /editor/projects/{id},
// /editor/reviews and /editor/reviews/{id}, and the path says which (docs/editing.md#the-editor).

const PROJECT_PATH = /^\/editor\/projects\/([^/]+)\/?$/;
const REVIEW_QUEUE_PATH = /^\/editor\/reviews\/?$/;
const REVIEW_PATH = /^\/editor\/reviews\/([^/]+)\/?$/;

/** `{ view: 'project' | 'reviews' | 'review' | 'home', id }` for an address. */
export function viewOfPath(pathname) {
  const project = PROJECT_PATH.exec(pathname);
  if (project) return { view: 'project', id: decodeURIComponent(project[1]) };
  if (REVIEW_QUEUE_PATH.test(pathname)) return { view: 'reviews', id: null };
  const review = REVIEW_PATH.exec(pathname);
  if (review) return { view: 'review', id: decodeURIComponent(review[1]) };
  return { view: 'home', id: null };
}

export function projectPath(projectId) {
  return `/editor/projects/${encodeURIComponent(projectId)}`;
}

export function reviewPath(projectId) {
  return `/editor/reviews/${encodeURIComponent(projectId)}`;
}

export const REVIEW_QUEUE = '/editor/reviews';
