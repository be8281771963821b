/**
 * A new password typed twice (resetting it, changing it): the fields, and whether the repeat
 * differs, which the form says itself before anything is sent.
 */
import { useState } from 'react';
import { TextField } from './input';

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
  minLength,
  autoFocus,
}: {
  state: ReturnType<typeof useNewPassword>;
  minLength?: number;
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextField
        label="New password"
        id="new-password"
        hint="At least 10 characters; a few words make a good one."
        type="password"
        autoComplete="new-password"
        value={state.password}
        onValue={state.setPassword}
        required
        minLength={minLength}
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
