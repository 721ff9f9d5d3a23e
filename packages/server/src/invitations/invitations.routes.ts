/** Invitation routes (issue 21). Placeholder until built. */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Services } from '../services.js';

export function registerInvitationRoutes(
  _app: FastifyInstance,
  _deps: { services: Services; config: Config },
) {}
