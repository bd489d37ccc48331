import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { EDITOR_ASSET_NAMES } from './editor-assets';

// The editor page's routes (docs/editing.md#the-editor): public files; what the page shows comes
// from the API calls it makes with the caller's key.

const TAGS = ['Editor'];
const PAGE = { 200: { description: 'The editor page (HTML).', contentType: 'text/html' }, 304: { description: 'Not modified since the copy the browser holds (ETag).' } };

export const editorOperations: Operation[] = [
  {
    method: 'get',
    path: '/editor',
    operationId: 'getEditorPage',
    summary: 'The editor page',
    description:
      "Edit a project's transcript and translations in the browser, listen to them, and regenerate. It asks for an API key (kept in the tab's session storage) and a project id. No authentication to load it.",
    tags: TAGS,
    auth: 'public',
    responses: PAGE,
    errors: [],
  },
  {
    method: 'get',
    path: '/editor/projects/{project_id}',
    operationId: 'getEditorProjectPage',
    summary: 'The editor page, open on a project',
    description:
      'The same page as /editor, showing this project. For scripted use the key may be given in the URL fragment, `#key=<key>`, which the browser never sends to a server; the page moves it into session storage and out of the address bar.',
    tags: TAGS,
    auth: 'public',
    pathParams: { project_id: { description: "The project's id; the page reads it, the route does not.", schema: { type: 'string' } } },
    responses: PAGE,
    errors: [],
  },
  {
    method: 'get',
    path: '/editor/reviews',
    operationId: 'getEditorReviewQueuePage',
    summary: 'The editor page, open on the review queue',
    description: "For the service's reviewers (a reviewer key): the open transcript reviews, to open one. The same page as /editor.",
    tags: TAGS,
    auth: 'public',
    responses: PAGE,
    errors: [],
  },
  {
    method: 'get',
    path: '/editor/reviews/{project_id}',
    operationId: 'getEditorReviewPage',
    summary: 'The editor page, open on one review',
    description: 'For a reviewer: listen to the source segment by segment, correct its words, claim the review and submit it. The same page as /editor.',
    tags: TAGS,
    auth: 'public',
    pathParams: { project_id: { description: "The reviewed project's id; the page reads it, the route does not.", schema: { type: 'string' } } },
    responses: PAGE,
    errors: [],
  },
  {
    method: 'get',
    path: '/editor/{asset}',
    operationId: 'getEditorAsset',
    summary: 'A file of the editor page',
    description: 'Its ES modules and stylesheet, from this server alone. No authentication.',
    tags: TAGS,
    auth: 'public',
    pathParams: { asset: { description: 'The file name.', schema: { type: 'string', enum: EDITOR_ASSET_NAMES } } },
    responses: {
      200: { description: 'The file.', contentType: ['text/javascript', 'text/css'] },
      304: { description: 'Not modified since the copy the browser holds (ETag).' },
    },
    errors: [notFound('editor file')],
  },
];
