/** Row types of the privacy request tables (migration 027). */
import type { Generated, JSONColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export type PrivacyRequestType = 'access' | 'erasure';
export type PrivacyRequestStatus = 'pending' | 'running' | 'completed' | 'failed';
export type SubjectKind = 'visitor_id' | 'user_id' | 'email' | 'handle' | 'customer_id';
/** `day`: a UTC day the person visited or converted on, whose rollups hold them. */
export type ScopeKind = 'visitor' | 'person_key' | 'customer' | 'day';

export interface MatchedCounts {
  visitors: number;
  visits: number;
  events: number;
  identity_links: number;
  payments: number;
  refunds: number;
}

export interface PrivacyRequestsTable {
  id: string;
  account_id: string;
  site_id: string;
  type: PrivacyRequestType;
  subject_kind: SubjectKind;
  subject_hash: string;
  status: Generated<PrivacyRequestStatus>;
  requested_by_user: string | null;
  requested_by_key: string | null;
  matched: JSONColumnType<MatchedCounts | null, string | null, string | null>;
  step: string | null;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  export_expires_at: NullableTimestamp;
}

export interface PrivacyRequestScopeTable {
  request_id: string;
  kind: ScopeKind;
  value: string;
}

export interface PrivacyTables {
  privacy_requests: PrivacyRequestsTable;
  privacy_request_scope: PrivacyRequestScopeTable;
}
