// Which project the page shows: the API serves the same page at /editor and at
// /editor/projects/{id}, and the path says which (docs/editing.md#the-editor).

const PROJECT_PATH = /^\/editor\/projects\/([^/]+)\/?$/;

/** The project id in the address, or null on /editor itself. */
export function projectIdFromPath(pathname) {
  const match = PROJECT_PATH.exec(pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

export function projectPath(projectId) {
  return `/editor/projects/${encodeURIComponent(projectId)}`;
}
