import { createAudioPlayer } from './audio-player.js';
import { plural } from './format.js';
import { createReviewDraft } from './review-draft.js';
import { REVIEW_QUEUE } from './route.js';
import { createSegmentTable } from './segment-table.js';

// One transcript review, for a reviewer (docs/editing.md#reviewers): listen to each segment of
// the source, correct its words (kept as a draft in this tab), claim the review, and submit the
// whole transcript. Only the reviewer who claimed it can submit; the API says so if not.

export async function openReviewEditor({ api, projectId, messages, elements }) {
  messages.notice('Loading the review…');
  let review = await api.getReview(projectId);
  const draft = createReviewDraft(projectId);
  const { claimButton, submitButton, reviewStatus } = elements;

  function showReview() {
    elements.summary.textContent = `${review.project_name} · transcript review · due ${new Date(review.deadline_at).toLocaleString()}`;
    const holder = review.claimed_by_you ? 'you' : review.reviewer;
    const changed = draft.changedCount(review.segments);
    const where = review.status === 'requested' ? 'Waiting for a reviewer: claim it to submit your corrections.' : `In review by ${holder}.`;
    reviewStatus.textContent = `${where} ${plural(changed, 'segment')} corrected so far.`;
    claimButton.hidden = review.status !== 'requested';
    submitButton.hidden = review.status === 'requested';
    submitButton.disabled = !review.claimed_by_you || review.segments.length === 0;
  }

  const act = (work) => async () => {
    messages.clearError();
    claimButton.disabled = true;
    submitButton.disabled = true;
    try {
      await work();
    } catch (err) {
      messages.error(err);
    } finally {
      claimButton.disabled = false;
      if (review) showReview();
    }
  };

  claimButton.onclick = act(async () => {
    review = await api.claimReview(projectId);
    messages.notice('Claimed: the review is yours until you submit it.');
  });

  submitButton.onclick = act(async () => {
    const submitted = await api.submitReview(projectId, draft.segmentsOf(review.segments));
    draft.clear();
    review = null;
    elements.editor.hidden = true;
    elements.reviewActions.hidden = true;
    player.stop();
    elements.summary.textContent = '';
    messages.notice(`Submitted by ${submitted.reviewer}: the transcript is verified, and the customer's completed languages are dubbed again from it.`);
    elements.queueLink.hidden = false;
  });

  /** Signed links live minutes (SIGNED_URL_TTL_SECONDS): fresh ones when one has gone stale. */
  async function refreshLinks() {
    try {
      table.refreshSourceAudio((await api.getReview(projectId)).source_audio_url);
      messages.notice('The audio link had expired; a fresh one is loaded. Press play again.');
    } catch (err) {
      messages.error(err);
    }
  }

  const player = createAudioPlayer({ sourceElement: elements.sourcePlayer, clipElement: elements.clipPlayer, onLinkFailed: refreshLinks });
  const saveSource = async (segmentId, text) => {
    draft.set(segmentId, text);
    showReview();
    return text;
  };
  const table = createSegmentTable(elements.table, { locales: [], player, saveSource, saveLine: async () => '', onError: (err) => messages.error(err) });
  table.showTranscript({ source_audio_url: review.source_audio_url, segments: review.segments.map((s) => ({ ...s, text: draft.textOf(s) })) });
  elements.sourceAudioNote.hidden = review.source_audio_url !== null || review.segments.length === 0;
  if (review.segments.length === 0) messages.notice('The source is not transcribed yet: reload once it is.');
  else messages.notice('');
  elements.queueLink.href = REVIEW_QUEUE;
  elements.queueLink.hidden = false;
  elements.reviewActions.hidden = false;
  elements.editor.hidden = false;
  showReview();
}
