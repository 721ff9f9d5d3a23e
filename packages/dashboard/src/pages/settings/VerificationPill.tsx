import type { VerificationStatus } from '../../api/settings';

const WORDS: Record<VerificationStatus, { text: string; tone: string }> = {
  verified: { text: 'Verified', tone: 'ok' },
  failing: { text: 'Failing', tone: 'bad' },
  unverified: { text: 'Not verified', tone: 'warn' },
};

/** Whether the endpoint answered its last ping. */
export function VerificationPill({ status }: { status: VerificationStatus }) {
  const { text, tone } = WORDS[status];
  return <span className={`pill ${tone}`}>{text}</span>;
}
