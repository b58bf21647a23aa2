import { useState } from 'react';

/**
 * The error and progress of an auth form. `submit` runs one request with the button in progress
 * and shows `errorText(failure)` when it fails.
 */
export function useAuthSubmit() {
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (request: () => Promise<void>, errorText: (failure: unknown) => string) => {
    setSubmitting(true);
    try {
      await request();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSubmitting(false);
    }
  };

  return { error, setError, submitting, submit };
}
