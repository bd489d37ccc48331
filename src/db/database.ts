import type { ApiKeyTable } from './api-keys';
import type { CreditBalanceTable, CreditHoldTable, CreditLedgerTable } from './credits';
import type { MeetingShareTable, MeetingTable } from './meetings';
import type { DeliverableTable, TranscriptSegmentTable } from './deliverables';
import type { IdempotencyKeyTable } from './idempotency';
import type { LanguageAdditionTable } from './language-additions';
import type { ProjectLanguageTable, ProjectTable } from './projects';
import type { ReconcilerRepairTable } from './reconciler-repairs';
import type { TranscriptReviewTable } from './transcript-reviews';
import type { VerifiedTranscriptSegmentTable } from './transcripts';
import type { WorkspaceChannelTable, WorkspaceYoutubeVersionTable, YoutubeChannelTable, YoutubeVideoTable } from './youtube';
import type { UploadPartTable, UploadTable } from './uploads';
import type { WebhookDeliveryAttemptTable, WebhookDeliveryTable, WebhookEndpointTable, WebhookEventTable } from './webhooks';
import type { WorkerCapabilitiesTable } from './worker-capabilities';
import type { RateLimitCounterTable } from './rate-limits';
import type { UserTable, WorkspaceTable } from './workspaces';

/** Every table the app reads or writes; each table's type lives beside its query functions. */
export interface Database {
  users: UserTable;
  workspaces: WorkspaceTable;
  api_keys: ApiKeyTable;
  credit_balances: CreditBalanceTable;
  credit_ledger: CreditLedgerTable;
  credit_holds: CreditHoldTable;
  projects: ProjectTable;
  project_languages: ProjectLanguageTable;
  uploads: UploadTable;
  upload_parts: UploadPartTable;
  idempotency_keys: IdempotencyKeyTable;
  deliverables: DeliverableTable;
  transcript_segments: TranscriptSegmentTable;
  transcript_reviews: TranscriptReviewTable;
  verified_transcript_segments: VerifiedTranscriptSegmentTable;
  meetings: MeetingTable;
  meeting_shares: MeetingShareTable;
  reconciler_repairs: ReconcilerRepairTable;
  language_additions: LanguageAdditionTable;
  youtube_channels: YoutubeChannelTable;
  workspace_channels: WorkspaceChannelTable;
  youtube_videos: YoutubeVideoTable;
  workspace_youtube_versions: WorkspaceYoutubeVersionTable;
  worker_capabilities: WorkerCapabilitiesTable;
  rate_limit_counters: RateLimitCounterTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
}
