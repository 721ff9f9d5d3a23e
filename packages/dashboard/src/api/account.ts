/** Sign-in, setup and the signed-in person (interface §5; DESIGN.md §8). */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from './http';
import type { Me, Role } from './types';

export type LoginAnswer =
  | { user_id: string; account_id: string; role: Role }
  | { second_factor_required: true };

/** The signed-in person, or null when no session is open (a 401 is an answer here, not an error). */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async (): Promise<Me | null> => {
    try {
      return await api<Me>('GET', '/v1/auth/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export const providersQuery = queryOptions({
  queryKey: ['auth-providers'],
  queryFn: () =>
    api<{ password: true; oidc: { name: string; start_url: string } | null }>('GET', '/v1/auth/providers'),
  staleTime: Number.POSITIVE_INFINITY,
});

export const login = (body: { email: string; password: string }) =>
  api<LoginAnswer>('POST', '/v1/auth/login', { body });
export const loginSecondFactor = (body: { code: string } | { recovery_code: string }) =>
  api<LoginAnswer>('POST', '/v1/auth/login/second-factor', { body });
export const setup = (body: { setup_token: string; email: string; password: string; account_name: string }) =>
  api<{ account_id: string; user_id: string; api_key: string }>('POST', '/v1/setup', { body });
export const acceptInvitation = (body: { token: string; password: string }) =>
  api<unknown>('POST', '/v1/auth/invitations/accept', { body });
export const requestPasswordReset = (body: { email: string }) =>
  api<unknown>('POST', '/v1/auth/password-reset', { body });
export const confirmPasswordReset = (body: { token: string; password: string }) =>
  api<unknown>('POST', '/v1/auth/password-reset/confirm', { body });
