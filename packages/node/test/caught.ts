/** The `TouchtrailError` a call rejects with; fails the test if it resolves or throws anything else. */
import { expect } from 'vitest';
import { TouchtrailError } from '../src/index.js';

export async function caught(promise: Promise<unknown>): Promise<TouchtrailError> {
  const error = await promise.then(
    () => new Error('expected the call to fail'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TouchtrailError);
  return error as TouchtrailError;
}
