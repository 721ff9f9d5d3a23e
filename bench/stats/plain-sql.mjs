/**
 * The pieces the plain queries are written with: the API's date ranges as UTC days, a URL's
 * path, identities merged into people, and the visit dimensions, each from the stored columns
 * as DESIGN.md §7 defines them (written here again, not imported from the server).
 */

const DAY_MS = 86_400_000;
const toDay = (date) => date.toISOString().slice(0, 10);
export const addDays = (day, days) => toDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
function addMonths(day, months) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return toDay(date);
}

/** The inclusive UTC days of the API's `30d` and `12mo`, as reporting/date-range.ts resolves them. */
export function dateRanges(now = new Date()) {
  const today = toDay(now);
  const last30 = { from: addDays(today, -29), to: today };
  return {
    last30,
    previous30: { from: addDays(last30.from, -30), to: addDays(last30.from, -1) },
    last12mo: { from: addMonths(`${today.slice(0, 7)}-01`, -11), to: today },
  };
}

/** Site, start and end (exclusive) of a range as the plain queries' $1, $2, $3. */
export const rangeParams = (siteId, { from, to }) => [
  siteId,
  `${from}T00:00:00Z`,
  `${addDays(to, 1)}T00:00:00Z`,
];

/** The path of a URL (no query or fragment), '/' when empty; null for no URL. */
export const pathOf = (column) =>
  `case when ${column} = '' then null else coalesce(nullif(substring(${column} from '^[a-z]+://[^/?#]*([^?#]*)'), ''), '/') end`;

/**
 * Each linked visitor id with the person key of its earliest link (equal times: the key first in
 * byte order), as identity/identity.sql.ts reads them; a visitor id not linked is a person alone.
 */
export const LINKS = `links as (
  select l.visitor_id, l.person_key from identity_links l
  where l.site_id = $1 and not exists (
    select 1 from identity_links earlier
    where earlier.site_id = l.site_id and earlier.visitor_id = l.visitor_id
      and (earlier.created_at < l.created_at
        or (earlier.created_at = l.created_at and earlier.person_key collate "C" < l.person_key collate "C"))
  )
)`;
/** `visitors` counts people: the person key of a linked visitor id, else the visitor id. */
export const person = (visitorId) => `coalesce('p:' || pl.person_key, 'v:' || ${visitorId})`;
export const personJoin = (visitorId) => `left join links pl on pl.visitor_id = ${visitorId}`;

export const VISITS_IN_RANGE =
  'v.site_id = $1 and v.started_at >= $2::timestamptz and v.started_at < $3::timestamptz';
export const PAGEVIEWS_IN_RANGE =
  "e.site_id = $1 and e.type = 'pageview' and e.occurred_at >= $2::timestamptz and e.occurred_at < $3::timestamptz";
/** What each visit dimension is, from the stored columns (DESIGN.md §7). */
export const VISIT_DIMENSIONS = {
  'visit:channel': "case when v.source_kind = 'ai' then 'ai' else v.session_ai_source end",
  'visit:ai_source': "case when v.source_kind = 'ai' then v.session_ai_source end",
  'visit:country': "nullif(v.country_code, '')",
  'visit:entry_page': pathOf('v.entry_url'),
};
