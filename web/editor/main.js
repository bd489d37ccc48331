import { createApi } from './api-client.js';
import { forgetKey, storedKey, storeKey, takeKeyFromFragment } from './api-key.js';
import { createMessages } from './messages.js';
import { openProjectEditor } from './project-editor.js';
import { projectIdFromPath, projectPath } from './route.js';

// The editor page's start: the key (from the fragment, the tab's storage, or the form), the
// project (from the path, or the form), then the project itself. A module script runs after the
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
};

takeKeyFromFragment();
const projectId = projectIdFromPath(location.pathname);

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

async function start() {
  const key = storedKey();
  if (!key) return askForKey();
  if (!projectId) return askForProject();
  messages.clearError();
  try {
    await openProjectEditor({ api: createApi(key), projectId, messages, elements });
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
