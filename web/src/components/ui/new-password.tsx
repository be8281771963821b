/**
 * A new password typed twice (resetting it, changing it): the fields, and whether the repeat
 * differs, which the form says itself before anything is sent. The shortest length allowed is
 * the service's (PASSWORD_MIN_LENGTH, from the sign-in options), so the form and the API agree.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { providersQuery } from '@/lib/queries';
import { TextField } from './input';

/**
 * A field for a new password under the service's rule: its minimum length, and the hint saying
 * so once the sign-in options have said it.
 */
export function NewPasswordField({
  label,
  id,
  value,
  onValue,
  autoFocus,
}: {
  label: string;
  id: string;
  value: string;
  onValue: (value: string) => void;
  autoFocus?: boolean;
}) {
  const minLength = useQuery(providersQuery).data?.passwordMinLength;
  return (
    <TextField
      label={label}
      id={id}
      hint={
        minLength === undefined
          ? 'A few words make a good one.'
          : `At least ${minLength} characters; a few words make a good one.`
      }
      type="password"
      autoComplete="new-password"
      value={value}
      onValue={onValue}
      required
      minLength={minLength}
      autoFocus={autoFocus}
    />
  );
}

export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  return {
    password,
    setPassword,
    repeated,
    setRepeated,
    mismatch: repeated !== '' && repeated !== password,
    clear: () => {
      setPassword('');
      setRepeated('');
    },
  };
}

export function NewPasswordFields({
  state,
  autoFocus,
}: {
  state: ReturnType<typeof useNewPassword>;
  autoFocus?: boolean;
}) {
  return (
    <>
      <NewPasswordField
        label="New password"
        id="new-password"
        value={state.password}
        onValue={state.setPassword}
        autoFocus={autoFocus}
      />
      <TextField
        label="Repeat the new password"
        id="repeated-password"
        type="password"
        autoComplete="new-password"
        value={state.repeated}
        onValue={state.setRepeated}
        required
        aria-invalid={state.mismatch}
      />
    </>
  );
}
