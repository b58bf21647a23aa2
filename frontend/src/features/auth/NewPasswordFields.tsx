import { PASSWORD_HINT } from './authRules';
import { PasswordField } from './PasswordField';

export interface NewPasswordFieldsProps {
  /** 'Password' on sign-up, 'New Password' on reset. */
  label: string;
  password: string;
  onPasswordChange: (value: string) => void;
  confirm: string;
  onConfirmChange: (value: string) => void;
  /** The password failed the rule: its hint turns red. */
  weak: boolean;
  /** A message under Confirm Password (they do not match). */
  confirmError?: string | null;
  autoFocus?: boolean;
}

/** A new password with the rule as its hint, then Confirm Password. */
export function NewPasswordFields({
  label,
  password,
  onPasswordChange,
  confirm,
  onConfirmChange,
  weak,
  confirmError,
  autoFocus,
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordField
        label={label}
        name="password"
        value={password}
        onChange={onPasswordChange}
        autoComplete="new-password"
        helperText={PASSWORD_HINT}
        error={weak}
        autoFocus={autoFocus}
      />
      <PasswordField
        label="Confirm Password"
        name="confirmPassword"
        value={confirm}
        onChange={onConfirmChange}
        autoComplete="new-password"
        error={Boolean(confirmError)}
        helperText={confirmError || undefined}
      />
    </>
  );
}
