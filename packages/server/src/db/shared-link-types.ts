/** Row types of the shared-link tables (migration 025). */
import type { NullableTimestamp, Timestamp } from './column-types.js';

export interface SharedLinksTable {
  id: string;
  site_id: string;
  account_id: string;
  label: string;
  token_hash: string;
  /** The first characters of the link's token, so a person can tell links apart. */
  display_prefix: string;
  password_hash: string | null;
  created_by: string | null;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface SharedLinkAccessTable {
  token_hash: string;
  link_id: string;
  site_id: string;
  expires_at: Timestamp;
}

export interface SharedLinkTables {
  shared_links: SharedLinksTable;
  shared_link_access: SharedLinkAccessTable;
}
