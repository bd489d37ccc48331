import { formatSeconds } from './format.js';
import { reviewPath } from './route.js';

// The reviewers' queue (docs/editing.md#reviewers): every open review, oldest request first,
// with how long the source is, who holds it and when it is due; each opens in the editor.

const dateTime = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export async function openReviewQueue({ api, messages, elements }) {
  messages.notice('Loading the review queue…');
  const queue = await api.listReviews();
  elements.summary.textContent = queue.length === 0 ? 'No transcript reviews are waiting.' : `${queue.length} open transcript review${queue.length === 1 ? '' : 's'}, oldest first`;
  const rows = queue.map((review) => {
    const tr = document.createElement('tr');
    tr.dataset.projectId = review.project_id;
    const name = document.createElement('td');
    const link = document.createElement('a');
    link.href = reviewPath(review.project_id);
    link.textContent = review.project_name;
    name.append(link);
    const cells = [
      review.source_duration_seconds === null ? '?' : formatSeconds(review.source_duration_seconds),
      review.status === 'in_review' ? `in review (${review.claimed_by_you ? 'you' : review.reviewer})` : 'waiting',
      dateTime(review.requested_at),
      dateTime(review.deadline_at),
    ].map((text) => {
      const td = document.createElement('td');
      td.textContent = text;
      return td;
    });
    tr.append(name, ...cells);
    return tr;
  });
  elements.queueTable.tBodies[0].replaceChildren(...rows);
  elements.queue.hidden = false;
  messages.notice('');
}
