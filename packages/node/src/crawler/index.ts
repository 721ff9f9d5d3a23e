/** `@touchtrail/node/crawler`: report AI crawler hits from a Node server to Touchtrail. */
export { TouchtrailError } from '../client/errors.js';
export {
  crawlerMiddleware,
  type FetchCrawlerOptions,
  fastifyCrawler,
  withCrawlerTracking,
} from './adapters.js';
export { isAiCrawler } from './detect.js';
export {
  type CrawlerHit,
  type CrawlerOptions,
  type CrawlerReporter,
  createCrawlerReporter,
} from './reporter.js';
