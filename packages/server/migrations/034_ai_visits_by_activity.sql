-- Page reports of the AI channel (or of given assistants) read the raw pageviews joined to their
-- visits (stats/pageview-grain.ts). Without this index the planner scans every visit of the site
-- to keep the AI ones; with it, it reads the AI visits active in the range. It holds AI visits
-- only, but as last_activity_at is now indexed, a visit's update is no longer a HOT update
-- (bench/RESULTS.md measures what that costs ingest).
create index visits_ai_activity_idx on visits (site_id, last_activity_at) where source_kind = 'ai';
