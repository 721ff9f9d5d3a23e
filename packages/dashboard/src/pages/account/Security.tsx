import { ChangePassword } from './ChangePassword';
import { TwoFactor } from './TwoFactor';

export function Security() {
  return (
    <>
      <TwoFactor />
      <ChangePassword />
    </>
  );
}
