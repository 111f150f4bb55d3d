// The workspace's account: credits and feedback (decisions.md §10), webhook deliveries (§8) and
// the workspace itself with its keys and signing secret (§3).
import type { Id, ListParams, Timestamp } from './common-types.ts';

// ---- credits, feedback ----

export interface CreditBalance {
  balance: number;
  reserved: number;
  available: number;
  updatedAt: Timestamp;
}

export interface CreditTransaction {
  id: Id;
  kind: 'grant' | 'reserve' | 'charge' | 'release';
  amount: number;
  balanceAfter: number;
  jobId?: Id;
  mediaId?: Id;
  createdAt: Timestamp;
}

export interface FeedbackCreateParams {
  resultId: Id;
  rating: 1 | 2 | 3 | 4 | 5;
  comment?: string;
}

export interface Feedback {
  id: Id;
  resultId: Id;
  rating: number;
  comment?: string;
  createdAt: Timestamp;
}

// ---- webhook deliveries ----

export interface DeliveryAttempt {
  attempt: number;
  at: Timestamp;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  outcome: 'succeeded' | 'failed' | 'refused' | 'gone' | 'in_flight' | 'interrupted';
}

export interface WebhookDelivery {
  id: Id;
  eventId: Id;
  eventType: string;
  jobId: Id;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: Timestamp | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Every attempt, on the single-delivery answers. */
  attempts?: DeliveryAttempt[];
}

export interface DeliveryListParams extends ListParams {
  jobId?: string;
  status?: 'pending' | 'succeeded' | 'failed';
}

// ---- workspace ----

/** Active API keys and bytes of stored media: the most a workspace may hold, or what it holds. */
export interface WorkspaceQuotaFigures {
  apiKeys: number;
  mediaBytes: number;
}

export interface Workspace {
  id: Id;
  name: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** The quotas in force (beyond them, 409 `QUOTA_EXCEEDED`). */
  quotas: WorkspaceQuotaFigures;
  /** What the workspace holds now, counted against `quotas`. */
  usage: WorkspaceQuotaFigures;
}

export interface ApiKey {
  id: Id;
  scope: 'admin' | 'standard';
  name: string | null;
  /** The key's last characters, to recognise it; the key itself is never shown again. */
  hint: string;
  createdAt: Timestamp;
  revokedAt: Timestamp | null;
}

/** The answer to creating a key: the only time the key itself is shown. */
export interface CreatedApiKey extends ApiKey {
  apiKey: string;
}

export interface ApiKeyCreateParams {
  scope?: 'admin' | 'standard';
  name?: string;
}

export interface SigningSecret {
  signingSecret: string;
  /** While a rotated secret is in its 24 h grace period, it and its end. */
  previousSigningSecret: string | null;
  previousExpiresAt: Timestamp | null;
}
