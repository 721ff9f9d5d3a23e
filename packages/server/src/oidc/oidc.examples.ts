/** Examples of the sign-in providers answer, for the OpenAPI document. */

export const PROVIDERS_EXAMPLE = {
  password: true,
  oidc: { name: 'Okta', start_url: 'https://analytics.example.com/v1/auth/oidc/start' },
};
