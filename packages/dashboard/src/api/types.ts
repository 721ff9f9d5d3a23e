/** The shapes of the `/v1` answers the dashboard reads (the server's OpenAPI document is their source). */
export type Role = 'admin' | 'member';
export type AttributionModel = 'first_touch' | 'last_touch' | 'linear' | 'time_decay';

export interface Me {
  user: { id: string; email: string; second_factor: boolean };
  role: Role;
  account: { id: string; name: string; plan: string; site_limit: number; region: 'us' | 'eu' };
}

export interface DashboardSite {
  uuid: string;
  snippet_key: string;
  domain: string;
  name: string | null;
  deleted_at: string | null;
}

export interface Site {
  id: string;
  name: string | null;
  domain: string;
  snippet_key: string;
  region: 'us' | 'eu';
  attribution_model: AttributionModel;
  cookie_apex_domain: string | null;
  suggested_cookie_apex_domain: string | null;
  currency: string;
  created_at: string;
  verified_at: string | null;
  deleted_at: string | null;
  deletion_effective_at: string | null;
  /** Days raw events are kept; null: the default (conversion records 365 days). */
  events_retention_days: number | null;
  /** Days visits are kept; null: kept. */
  visits_retention_days: number | null;
}

export type StatsFilter = [
  operator: 'is' | 'is_not' | 'contains' | 'matches',
  dimension: string,
  values: string[],
];

export interface StatsQuery {
  site_id: string;
  metrics: string[];
  date_range: string | [string, string];
  dimensions?: string[];
  filters?: StatsFilter[];
  order_by?: [string, 'asc' | 'desc'][];
  timezone?: string;
  attribution_model?: AttributionModel;
  limit?: number;
  include?: { total_rows?: boolean; comparison?: 'previous_period' | 'year_over_year' };
}

export interface StatsRow {
  dimensions: (string | null)[];
  metrics: number[];
  comparison?: { dimensions: (string | null)[]; metrics: number[]; change: (number | null)[] };
}

export interface StatsAnswer {
  results: StatsRow[];
  meta: {
    date_range: [string, string];
    comparison_range?: [string, string];
    total_rows?: number;
    currency: string;
    approximate: string[];
    unconverted?: { metric: string; currency: string; amount: number }[];
  };
}

export interface Realtime {
  visitors: number;
  pages: { page: string; visitors: number }[];
  sources: { channel: string; ai_source: string | null; visitors: number }[];
}
