/** Builds every service from its dependencies, so HTTP, workers and tools share one wiring. */
import type { Kysely } from 'kysely';
import { createAccountsService } from './accounts/accounts.service.js';
import { createAiVisibilityService } from './ai-visibility/ai-visibility.service.js';
import { createAttributionWorker } from './attribution/attribution.worker.js';
import type { ClickHouse } from './clickhouse/connection.js';
import { createClickHouseEngine } from './clickhouse/engine.js';
import type { ShipperLog } from './clickhouse/shipper.js';
import type { Config } from './config.js';
import { createConversionsService } from './conversions/conversions.service.js';
import { createBotTokensService } from './crawlers/bot-tokens.service.js';
import { createCrawlerHitsService } from './crawlers/crawler-hits.service.js';
import { createCrawlerRanges } from './crawlers/crawler-ranges.js';
import { createPlannerStatistics } from './db/planner-statistics.js';
import type { DB } from './db/types.js';
import { createEventsService } from './events/events.service.js';
import { createFunnelsService } from './funnels/funnels.service.js';
import { createGoalsService } from './goals/goals.service.js';
import { createImportJobs } from './imports/import-job.js';
import { createImportsService } from './imports/imports.service.js';
import { createIngestService } from './ingest/ingest.service.js';
import { createIntegrationsService } from './integrations/integrations.service.js';
import { createInvitationsService } from './invitations/invitations.service.js';
import { createKeysService } from './keys/keys.service.js';
import type { Clock } from './lib/clock.js';
import { createMailer } from './mail/mailer.js';
import { createOidcService } from './oidc/oidc.service.js';
import { createPasswordResetService } from './password-reset/password-reset.service.js';
import { createPaymentsService } from './payments/payments.service.js';
import { createVisitorsService } from './people/visitors.service.js';
import { createPrivacyService } from './privacy/privacy.service.js';
import { createPrivacyJobs } from './privacy/privacy-jobs.js';
import { createRatesService } from './rates/rates.service.js';
import { createRealtimeService } from './realtime/realtime.service.js';
import { createStatsRollups } from './reporting/rollups/rollup-job.query.js';
import { createRetention } from './retention/retention.js';
import { createRevenueService } from './revenue/revenue.service.js';
import { createSecondFactorService } from './second-factor/second-factor.service.js';
import { createSharedLinksService } from './shared-links/shared-links.service.js';
import { createSessionsService } from './sign-in/sessions.service.js';
import { createSiteExportService } from './site-export/site-export.service.js';
import { createSitesService } from './sites/sites.service.js';
import { createStatsService } from './stats/stats.service.js';
import { createVisitsService } from './visits/visits.service.js';
import { createWebhooksService } from './webhooks/webhooks.service.js';

export function createServices({
  db,
  clock,
  config,
  clickhouse,
  log,
}: {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  /** ClickHouse for traffic history, when CLICKHOUSE_URL is set (clickhouse/). */
  clickhouse?: ClickHouse;
  log?: ShipperLog;
}) {
  // Traffic history in ClickHouse, when configured; reports fall back to PostgreSQL when it fails.
  const clickhouseEngine = clickhouse ? createClickHouseEngine({ db, clock, clickhouse, log }) : undefined;
  const clickhouseReads = clickhouseEngine?.reads;
  const keys = createKeysService({ db, clock });
  const accounts = createAccountsService({ db, clock, config, keys });
  const sites = createSitesService({ db, clock, accounts, keys, clickhouse: clickhouseEngine?.shipper });
  const secondFactor = createSecondFactorService({ db, clock, config, accounts });
  const sessions = createSessionsService({ db, clock, accounts, secondFactor });
  if (!config.secretKey) throw new Error('config.secretKey must be resolved before the services are built');
  const ingest = createIngestService({ db, clock, secretKey: config.secretKey });
  const goals = createGoalsService({ db, clock, sites });
  const visitors = createVisitorsService({
    db,
    clock,
    sites,
    secretKey: config.secretKey,
    clickhouse: clickhouseReads,
  });
  const rates = createRatesService({ db, clock });
  // Payment-processor connections.
  const integrations = createIntegrationsService({
    db,
    clock,
    secretKey: config.secretKey,
    receiveBaseUrl: config.publicUrl,
    sites,
    ingest,
  });
  const payments = createPaymentsService({
    db,
    clock,
    secretKey: config.secretKey,
    sites,
    ingest,
    isProviderConnected: integrations.isConnected,
  });
  const webhooks = createWebhooksService({ db, clock, config, sites });
  // Attribution worker, conversion listing and revenue report.
  const attribution = createAttributionWorker({ db, clock });
  const conversions = createConversionsService({ db, clock, sites });
  const revenue = createRevenueService({ db, clock, sites });
  // Traffic reports.
  const stats = createStatsService({ db, clock, sites, clickhouse: clickhouseReads });
  const { secretKey } = config;
  const visits = createVisitsService({ db, clock, sites, rates, secretKey, clickhouse: clickhouseReads });
  const events = createEventsService({ db, clock, sites, rates, secretKey, clickhouse: clickhouseReads });
  const funnels = createFunnelsService({ db, clock, sites, rates, clickhouse: clickhouseReads });
  const realtime = createRealtimeService({ db, clock, sites, rates });
  const statsRollups = createStatsRollups({ db, clock });
  const aiVisibility = createAiVisibilityService({ db, clock, sites, rates, clickhouse: clickhouseReads });
  // AI crawler tracking.
  const botTokens = createBotTokensService({ db, clock, sites });
  // Public views of a site's traffic.
  const sharedLinks = createSharedLinksService({ db, clock, sites, publicUrl: config.publicUrl });
  const crawlerRanges = createCrawlerRanges({ db, clock });
  const crawlerHits = createCrawlerHitsService({ db, clock, ranges: crawlerRanges, sites });
  const retention = createRetention({
    db,
    clock,
    clickhouse: clickhouseEngine && {
      pgRetentionDays: config.trafficPgRetentionDays,
      deletes: clickhouseEngine.shipper,
    },
  });
  const plannerStatistics = createPlannerStatistics({ db });
  // Privacy operations.
  const siteExport = createSiteExportService({ db, clock, sites, clickhouse: clickhouseReads });
  const privacy = createPrivacyService({
    db,
    clock,
    sites,
    secretKey,
    publicUrl: config.publicUrl,
    clickhouse: clickhouseReads,
  });
  const privacyJobs = createPrivacyJobs({ db, clock, clickhouse: clickhouseEngine?.shipper });
  const importJobs = createImportJobs({ db, clock });
  const imports = createImportsService({ db, clock, sites, onQueued: importJobs.queued });
  // Sign-in for people.
  const mailer = createMailer(config);
  const invitations = createInvitationsService({ db, clock, config, mailer, accounts });
  const passwordReset = createPasswordResetService({ db, clock, config, mailer, sessions, accounts });
  const oidc = createOidcService({ db, clock, config, sessions, invitations, accounts });
  return {
    clickhouseEngine,
    sites,
    keys,
    accounts,
    sessions,
    ingest,
    goals,
    visitors,
    payments,
    integrations,
    rates,
    webhooks,
    attribution,
    conversions,
    revenue,
    stats,
    statsRollups,
    visits,
    events,
    funnels,
    realtime,
    aiVisibility,
    botTokens,
    sharedLinks,
    crawlerRanges,
    crawlerHits,
    retention,
    plannerStatistics,
    siteExport,
    privacy,
    privacyJobs,
    imports,
    importJobs,
    mailer,
    secondFactor,
    invitations,
    passwordReset,
    oidc,
  };
}

export type Services = ReturnType<typeof createServices>;
