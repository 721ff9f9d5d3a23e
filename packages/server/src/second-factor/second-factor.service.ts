/**
 * The TOTP second factor of password sign-in (DESIGN.md §8): enrolment (pending until
 * a first code confirms it), recovery codes, removal, and the check a pending sign-in passes.
 * The secret is sealed like webhook signing secrets (AES-256-GCM under SECRET_KEY), with the
 * person's id as associated data.
 */
import type { Kysely } from 'kysely';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { createSecretBox } from '../webhooks/webhook-secrets.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import * as store from './second-factor.store.js';
import { isTotpCode, matchStep, newTotpSecret, otpauthUri } from './totp.js';

/** A TOTP code, or one of the recovery codes. */
export type SecondFactorProof = { code: string } | { recovery_code: string };

const wrongCode = (status: 401 | 403, field: string) =>
  new AppError(status, 'invalid_code', 'The code is wrong, expired or already used', { field });

// Keeps a sealed TOTP secret from opening as anything else sealed with the same key.
const sealContext = (userId: string) => `totp:${userId}`;

export function createSecondFactorService({
  db,
  clock,
  config,
  accounts,
}: {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  accounts: Pick<AccountsService, 'findUser'>;
}) {
  if (!config.secretKey) throw new Error('config.secretKey must be resolved before the services are built');
  const box = createSecretBox(config.secretKey);
  /** The secret in plain, or null when it cannot be opened (SECRET_KEY changed): recovery codes still work. */
  const secretOf = (factor: { user_id: string; secret_sealed: string }): string | null => {
    try {
      return box.open(factor.secret_sealed, sealContext(factor.user_id));
    } catch {
      return null;
    }
  };

  /** Accepts a TOTP code once: its time step must be later than the last one accepted. */
  async function acceptCode(
    factor: { user_id: string; secret_sealed: string },
    code: string,
    confirming: boolean,
  ) {
    const now = clock.now();
    const secret = secretOf(factor);
    const step = secret === null ? null : matchStep(secret, code, now);
    if (step === null) return false;
    return Boolean(await store.acceptStep(db, factor.user_id, step, confirming ? now : null));
  }

  async function acceptProof(userId: string, proof: SecondFactorProof): Promise<boolean> {
    const factor = await store.findFactor(db, userId);
    if (!factor?.confirmed_at) return false;
    if ('code' in proof) return acceptCode(factor, proof.code, false);
    const used = await store.useRecoveryCode(db, userId, recoveryCodeHash(proof.recovery_code), clock.now());
    return Boolean(used);
  }

  return {
    async isEnrolled(userId: string): Promise<boolean> {
      return Boolean((await store.findFactor(db, userId))?.confirmed_at);
    },

    /** Starts (or restarts) enrolment: a new pending secret, shown this once. */
    async begin(userId: string): Promise<{ otpauth_uri: string; secret: string }> {
      const person = await accounts.findUser(userId);
      if (!person?.password_hash) {
        throw new AppError(
          409,
          'password_required',
          'A second factor protects password sign-in; set a password first',
        );
      }
      const secret = newTotpSecret();
      const stored = await store.upsertPendingFactor(db, {
        userId,
        sealed: box.seal(secret, sealContext(userId)),
        now: clock.now(),
      });
      if (!stored) throw enrolled();
      return { otpauth_uri: otpauthUri(secret, person.email), secret };
    },

    /** Confirms the pending secret with a first code; answers the recovery codes, shown this once. */
    async confirm(userId: string, code: string): Promise<{ recovery_codes: string[] }> {
      const factor = await store.findFactor(db, userId);
      if (!factor)
        throw new AppError(409, 'second_factor_not_enrolled', 'Start enrolment first (POST /v1/auth/totp)');
      if (factor.confirmed_at) throw enrolled();
      if (!(await acceptCode(factor, code, true))) throw wrongCode(403, 'code');
      const codes = newRecoveryCodes();
      await db
        .transaction()
        .execute((trx) => store.replaceRecoveryCodes(trx, userId, codes.map(recoveryCodeHash)));
      return { recovery_codes: codes };
    },

    /** Removes the second factor after one more proof: a TOTP code or a recovery code. */
    async remove(userId: string, code: string): Promise<void> {
      if (!(await this.isEnrolled(userId))) {
        throw new AppError(409, 'second_factor_not_enrolled', 'There is no second factor to remove');
      }
      const proof = isTotpCode(code) ? { code } : { recovery_code: code };
      if (!(await acceptProof(userId, proof))) throw wrongCode(403, 'code');
      await db.transaction().execute((trx) => store.deleteFactor(trx, userId));
    },

    /** The check of a pending sign-in; throws 401 when the proof fails. */
    async verify(userId: string, proof: SecondFactorProof): Promise<void> {
      if (!(await acceptProof(userId, proof)))
        throw wrongCode(401, 'code' in proof ? 'code' : 'recovery_code');
    },
  };
}

function enrolled() {
  return new AppError(409, 'second_factor_enrolled', 'A second factor is already set up; remove it first');
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
