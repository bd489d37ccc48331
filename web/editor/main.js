import { createApi } from './api-client.js';
import { forgetKey, storedKey, storeKey, takeKeyFromFragment } from './api-key.js';
import { createMessages } from './messages.js';
import { openProjectEditor } from './project-editor.js';
import { openReviewEditor } from './review-editor.js';
import { openReviewQueue } from './review-queue.js';
import { projectPath, viewOfPath } from './route.js';

// The editor page's start: the key (from the fragment, the tab's storage, or the form), then what
// the path asks for: a project (a customer's key), the review queue or one review (a reviewer's
// key), or on /editor itself the form asking for a project. A module script runs after the
// document is parsed, so every element below exists.

const byId = (id) => document.getElementById(id);
const messages = createMessages(byId('notice'), byId('error'));
const elements = {
  summary: byId('project-summary'),
  editor: byId('editor'),
  languages: byId('languages'),
  table: byId('segments'),
  sourceAudioNote: byId('source-audio-note'),
  sourcePlayer: byId('source-player'),
  clipPlayer: byId('clip-player'),
  samplePlayer: byId('sample-player'),
  speakers: byId('speakers'),
  queue: byId('review-queue'),
  queueTable: byId('review-queue-table'),
  queueLink: byId('queue-link'),
  reviewActions: byId('review-actions'),
  claimButton: byId('claim-review'),
  submitButton: byId('submit-review'),
  reviewStatus: byId('review-status'),
};

takeKeyFromFragment();
const { view, id } = viewOfPath(location.pathname);

function askForKey() {
  const form = byId('key-form');
  form.hidden = false;
  byId('api-key').focus();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    storeKey(byId('api-key').value);
    byId('api-key').value = '';
    form.hidden = true;
    void start();
  }, { once: true });
}

function askForProject() {
  const form = byId('project-form');
  form.hidden = false;
  byId('project-id').focus();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.assign(projectPath(byId('project-id').value.trim()));
  });
}

const VIEWS = {
  project: (api) => openProjectEditor({ api, projectId: id, messages, elements }),
  reviews: (api) => openReviewQueue({ api, messages, elements }),
  review: (api) => openReviewEditor({ api, projectId: id, messages, elements }),
};

async function start() {
  const key = storedKey();
  if (!key) return askForKey();
  if (view === 'home') return askForProject();
  messages.clearError();
  try {
    await VIEWS[view](createApi(key));
  } catch (err) {
    messages.notice('');
    messages.error(err);
    // A key the API does not take: ask for another.
    if (err.status === 401) {
      forgetKey();
      askForKey();
    }
  }
}

void start();
