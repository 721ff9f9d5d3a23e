/** Sign-in, setup and the signed-in person (interface §5; DESIGN.md §8). */
import { queryOptions } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { ApiError, api, unwrap } from './http';
import type { Me } from './types';

export type LoginAnswer = Answer<'login'>;

/** The signed-in person, or null when no session is open (a 401 is an answer here, not an error). */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async (): Promise<Me | null> => {
    try {
      return await unwrap(api.GET('/v1/auth/me'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export const providersQuery = queryOptions({
  queryKey: ['auth-providers'],
  queryFn: () => unwrap(api.GET('/v1/auth/providers')),
  staleTime: Number.POSITIVE_INFINITY,
});

export const login = (body: Body<'login'>) => unwrap(api.POST('/v1/auth/login', { body }));
/**
 * The schema makes both fields optional; the form sends exactly one, so the type says so.
 * The answer is the sign-in half of `LoginAnswer`.
 */
export const loginSecondFactor = (body: { code: string } | { recovery_code: string }) =>
  unwrap(api.POST('/v1/auth/login/second-factor', { body }));
/** Whether the server has its first account: a fresh one opens on setup, not sign-in. */
export const setupStatusQuery = queryOptions({
  queryKey: ['setup-status'],
  queryFn: () => unwrap(api.GET('/v1/setup')),
});

export const setup = (body: Body<'createFirstAccount'>) => unwrap(api.POST('/v1/setup', { body }));
export const acceptInvitation = (body: Body<'acceptInvitation'>) =>
  unwrap(api.POST('/v1/auth/invitations/accept', { body }));
/** Answers 202 with no body. */
export const requestPasswordReset = (body: Body<'requestPasswordReset'>) =>
  unwrap(api.POST('/v1/auth/password-reset', { body }));
export const confirmPasswordReset = (body: Body<'confirmPasswordReset'>) =>
  unwrap(api.POST('/v1/auth/password-reset/confirm', { body }));
