/** CSRF protection for cookie-authenticated writes (issue 21). Placeholder until built. */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

export function installCsrfProtection(_app: FastifyInstance, _config: Pick<Config, 'publicUrl'>): void {}
