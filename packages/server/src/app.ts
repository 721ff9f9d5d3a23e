/**
 * `buildApp(deps)` wires the HTTP application from ready-made dependencies. It reads no
 * environment and opens nothing itself, so tests build it around their own database and clock.
 */
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import { registerMemberRoutes } from './accounts/members.routes.js';
import { registerSetupRoutes } from './accounts/setup.routes.js';
import { registerAiVisibilityRoutes } from './ai-visibility/ai-visibility.routes.js';
import type { ClickHouse } from './clickhouse/connection.js';
import type { Config } from './config.js';
import { registerConversionRoutes } from './conversions/conversions.routes.js';
import { registerBotTokenRoutes } from './crawlers/bot-tokens.routes.js';
import { registerCrawlerHitRoutes } from './crawlers/crawler-hits.routes.js';
import { registerCrawlerReportRoute } from './crawlers/crawler-report.routes.js';
import { registerDashboardRoutes } from './dashboard/dashboard.routes.js';
import type { Database } from './db/database.js';
import { registerDocsRoutes } from './docs/docs.routes.js';
import { registerEventsRoutes } from './events/events.routes.js';
import { registerFunnelsRoutes } from './funnels/funnels.routes.js';
import { registerGoalRoutes } from './goals/goals.routes.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { installAuthentication } from './http/authenticate.js';
import { createFrameworkErrorHandler, MAX_PARAM_LENGTH } from './http/bad-url.js';
import { installConnectionLimit } from './http/connection-limit.js';
import { installCsrfProtection } from './http/csrf.js';
import type { Area } from './http/error-bodies.js';
import { installErrorHandling } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { buildLoggerOptions } from './http/logging.js';
import { installOpenApi, registerOpenApiRoute } from './http/openapi.js';
import { installRateLimits } from './http/rate-limit.js';
import { installRole, type ServerRole } from './http/roles.js';
import { limitRequestTime, serverTimeoutOptions } from './http/server-timeouts.js';
import { registerImportsRoutes } from './imports/imports.routes.js';
import { registerCollectRoutes } from './ingest/collect.routes.js';
import { createGeoLookup, type GeoLookup } from './ingest/geo.js';
import { registerServerEventRoutes } from './ingest/server-events.routes.js';
import { registerTrackerRoute } from './ingest/tracker.routes.js';
import { registerIntegrationRoutes } from './integrations/integrations.routes.js';
import { registerInvitationRoutes } from './invitations/invitations.routes.js';
import { observeJobRuns } from './jobs/periodic.js';
import { registerCurrentKeyRoute } from './keys/current-key.routes.js';
import { registerKeyRoutes } from './keys/keys.routes.js';
import type { Clock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import { registerMcpRoutes } from './mcp/mcp.routes.js';
import { createAppMetrics } from './metrics/app-metrics.js';
import { registerMetricsRoute } from './metrics/metrics.routes.js';
import { installRequestMetrics } from './metrics/request-metrics.js';
import { registerOidcRoutes } from './oidc/oidc.routes.js';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes.js';
import { registerPaymentRoutes } from './payments/payments.routes.js';
import { registerVisitorRoutes } from './people/visitors.routes.js';
import { registerPrivacyRoutes } from './privacy/privacy.routes.js';
import { registerRealtimeRoutes } from './realtime/realtime.routes.js';
import { registerRevenueRoutes } from './revenue/revenue.routes.js';
import { registerSecondFactorRoutes } from './second-factor/second-factor.routes.js';
import { createServices, type Services } from './services.js';
import { registerSharedLinkRoutes } from './shared-links/shared-links.routes.js';
import { registerSessionRoutes } from './sign-in/sessions.routes.js';
import { registerSiteExportRoutes } from './site-export/site-export.routes.js';
import { registerSiteRoutes } from './sites/sites.routes.js';
import { registerStatsRoutes } from './stats/stats.routes.js';
import { registerVisitsRoutes } from './visits/visits.routes.js';
import { registerWebhookRoutes } from './webhooks/webhooks.routes.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  redis?: Redis;
  /** Overrides the location lookup (tests pin a country). */
  geo?: GeoLookup;
  /** Overrides the logger options (tests pass a stream to read log lines, or false). */
  logger?: FastifyServerOptions['logger'];
  /** Which routes this process answers (http/roles.ts); every route by default. */
  role?: ServerRole;
  /** Overrides the folder of the dashboard's built files (tests serve a folder of their own). */
  dashboardDir?: string;
  /** ClickHouse for traffic history, opened by the caller when CLICKHOUSE_URL is set. */
  clickhouse?: ClickHouse;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export interface RegisteredRoute {
  method: string;
  url: string;
  isDocumented: boolean;
  /** Whose error bodies the route answers with (http/error-bodies.ts); `account` when unset. */
  area?: Area;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` leaves out helmet's headers, which only matter to documents a browser renders
     * (framing, content security, HSTS); the route sets what its answers need itself.
     */
    pageHeaders?: boolean;
    /** A body that may take up to UPLOAD_TIMEOUT_MS (http/server-timeouts.ts): an import's file. */
    longUpload?: boolean;
  }
  interface FastifyInstance {
    services: Services;
    /** Every route with whether it appears in the OpenAPI document (tests check the two agree). */
    registeredRoutes: RegisteredRoute[];
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, clock } = deps;
  const registeredRoutes: RegisteredRoute[] = [];
  // Helmet's middleware is built once: @fastify/helmet rebuilt it on every request, which cost
  // more than the rest of the collect endpoint's header work together.
  const securityHeaders = helmet();
  const app = Fastify({
    ...serverTimeoutOptions(config),
    logger: deps.logger ?? buildLoggerOptions(config.logLevel),
    // Fastify takes a hop count too, though its types leave the number out.
    trustProxy: config.trustProxy as boolean | string[],
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : newId();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A path parameter the router refuses (undecodable, too long) answers in its route's area.
    // No hook runs for these, so the handler sets the headers every answer carries itself.
    frameworkErrors: createFrameworkErrorHandler(registeredRoutes, (request, reply) => {
      securityHeaders(request.raw, reply.raw, () => {});
      reply.header('x-request-id', request.id);
    }),
  });
  installConnectionLimit(app.server, config.maxConnectionsPerAddress, app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const errors = installErrorHandling(app);
  installJsonBodyParser(app);
  installRole(app, deps.role ?? 'all', [
    config.collectPath,
    config.trackerScriptPath,
    '/v1/server/events',
    '/v1/server/payments',
    '/v1/integrations/:provider/:connectionId',
    '/v1/crawler/hits',
  ]);

  const services = createServices({
    db: database.db,
    clock,
    config,
    clickhouse: deps.clickhouse,
    log: { warn: (message) => app.log.warn(message), info: (message) => app.log.info(message) },
  });
  app.decorate('services', services);
  const metrics = createAppMetrics({
    db: database.db,
    clock,
    ingestWaiting: services.ingest.waiting,
    shipLagSeconds: services.clickhouseEngine?.shipper.lagSeconds,
    onQueueReadFailed: (error) => app.log.warn({ err: error }, 'metrics: queue depths could not be read'),
  });
  installRequestMetrics(app, metrics);
  services.ingest.observe(metrics.ingest);
  const stopObservingJobs = observeJobRuns(metrics.jobRun);
  app.addHook('onClose', async () => stopObservingJobs());
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      registeredRoutes.push({
        method,
        url: route.url,
        isDocumented: !(route.schema as { hide?: boolean })?.hide,
        area: (route.config as { area?: Area } | undefined)?.area,
      });
    }
  });

  limitRequestTime(app, config.requestTimeoutMs);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.pageHeaders === false) return done();
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
  await app.register(cookie);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  await installRateLimits(app, deps.redis);
  installAuthentication(app, services);
  installCsrfProtection(app, config);
  await installOpenApi(app, config.publicUrl);

  registerHealthRoutes(app, { database, clickhouse: services.clickhouseEngine });
  registerMetricsRoute(app, { metrics, token: config.metricsToken });
  registerSetupRoutes(app, services);
  registerSessionRoutes(app, { ...services, secureCookies: config.publicUrl.startsWith('https://') });
  registerMemberRoutes(app, services);
  registerSecondFactorRoutes(app, { services, config });
  registerInvitationRoutes(app, { services, config });
  registerPasswordResetRoutes(app, { services, config });
  registerOidcRoutes(app, { services, config });
  registerKeyRoutes(app, services);
  registerCurrentKeyRoute(app, services);
  registerSiteRoutes(app, services);
  registerSiteExportRoutes(app, services);
  registerImportsRoutes(app, services);
  registerPrivacyRoutes(app, services);
  const geo =
    deps.geo ??
    (await createGeoLookup({ databasePath: config.geoipDb, trustCdnHeaders: config.trustProxy !== false }));
  await registerCollectRoutes(app, {
    ingest: services.ingest,
    geo,
    collectPath: config.collectPath,
    ratePerMinute: config.ingestRateLimit,
  });
  registerServerEventRoutes(app, services);
  registerTrackerRoute(app, { scriptPath: config.trackerScriptPath, collectPath: config.collectPath });
  registerGoalRoutes(app, services);
  registerVisitorRoutes(app, services);
  registerPaymentRoutes(app, services);
  await registerIntegrationRoutes(app, services);
  registerWebhookRoutes(app, services);
  registerConversionRoutes(app, services);
  registerRevenueRoutes(app, services);
  registerStatsRoutes(app, services);
  registerVisitsRoutes(app, services);
  registerEventsRoutes(app, services);
  registerFunnelsRoutes(app, services);
  registerRealtimeRoutes(app, services);
  registerAiVisibilityRoutes(app, services);
  registerBotTokenRoutes(app, services);
  registerSharedLinkRoutes(app, services);
  registerCrawlerHitRoutes(app, services);
  registerCrawlerReportRoute(app, {
    db: database.db,
    clock,
    sites: services.sites,
    convert: (amountMinor, from, to, day) => services.rates.convertMinor(amountMinor, from, to, day),
  });
  registerMcpRoutes(app);
  registerOpenApiRoute(app);
  registerDocsRoutes(app);
  const dashboardNotFound = registerDashboardRoutes(app, { dir: deps.dashboardDir });
  // Only a server that shows the dashboard answers a browser's unknown address with it.
  if ((deps.role ?? 'all') === 'all' || deps.role === 'api') errors.serveOnNotFound(dashboardNotFound);
  // Batches still waiting are written before the database closes (main.ts closes it after this).
  app.addHook('onClose', async () => {
    await services.ingest.drain();
    await services.crawlerHits.drain();
  });

  await app.ready();
  return app;
}
