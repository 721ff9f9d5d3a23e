/** Examples of the API key routes' requests and answers, for the OpenAPI document. */

export const KEY_ID_EXAMPLE = '5c56873f-58ed-41b8-8edf-e9d4b0bd068a';

const OWNER_ID = '7ecd75eb-188b-4b5e-a92d-bc18d86b09c7';

export const KEY_EXAMPLE = {
  id: KEY_ID_EXAMPLE,
  name: 'Nightly export',
  prefix: 'tk_live_c4b9',
  scopes: ['stats:read'],
  site_id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed',
  created_by: OWNER_ID,
  expires_at: '2026-12-31T23:59:59.000Z',
  last_used_at: '2026-06-14T02:00:41.000Z',
  revoked_at: null,
  created_at: '2026-06-01T08:15:00.000Z',
};

export const KEY_LIST_EXAMPLE = {
  keys: [
    KEY_EXAMPLE,
    {
      id: '253b127c-592f-4b64-b572-07e59089c7d3',
      name: 'Setup key',
      prefix: 'tk_live_9aF3',
      scopes: ['stats:read', 'config:write', 'credentials:write', 'ingest:write'],
      site_id: null,
      created_by: OWNER_ID,
      expires_at: null,
      last_used_at: null,
      revoked_at: '2026-02-03T11:00:00.000Z',
      created_at: '2026-01-12T09:00:00.000Z',
    },
  ],
};

export const CREATE_KEY_EXAMPLE = {
  name: 'Nightly export',
  scopes: ['stats:read'],
  site_id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed',
  expires_at: '2026-12-31T23:59:59Z',
};

export const CREATED_KEY_EXAMPLE = {
  ...KEY_EXAMPLE,
  last_used_at: null,
  api_key: 'tk_live_c4b98681d7880a5980af4ae93fc24b2c9b398961',
};
