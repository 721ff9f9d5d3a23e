/** The password minimums the client exports are the ones the server's OpenAPI document publishes. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH, SHARED_LINK_PASSWORD_MIN_LENGTH } from '../src/vocabulary.js';

interface Schema {
  properties?: Record<string, { minLength?: number }>;
}
const document = JSON.parse(readFileSync(new URL('../../server/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<
    string,
    Record<string, { requestBody: { content: { 'application/json': { schema: Schema } } } }>
  >;
};
const minLengthOf = (path: string, field: string) =>
  document.paths[path]?.post?.requestBody.content['application/json'].schema.properties?.[field]?.minLength;

it('has the account password minimum the server publishes on every form that sets one', () => {
  expect({
    setup: minLengthOf('/v1/setup', 'password'),
    invitation: minLengthOf('/v1/auth/invitations/accept', 'password'),
    reset: minLengthOf('/v1/auth/password-reset/confirm', 'password'),
    change: minLengthOf('/v1/auth/password', 'new_password'),
  }).toEqual({
    setup: PASSWORD_MIN_LENGTH,
    invitation: PASSWORD_MIN_LENGTH,
    reset: PASSWORD_MIN_LENGTH,
    change: PASSWORD_MIN_LENGTH,
  });
});

it('has the shared-link password minimum the server publishes', () => {
  expect(minLengthOf('/v1/sites/{siteId}/shared-links', 'password')).toBe(SHARED_LINK_PASSWORD_MIN_LENGTH);
});
