import { useSnackbar } from 'notistack';
import { useState } from 'react';

/** Copies a text, says so (or that it failed) in a toast, and remembers it was copied for the button's tick. */
export function useCopy(done: string, failed: string) {
  const { enqueueSnackbar } = useSnackbar();
  const [copied, setCopied] = useState(false);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      enqueueSnackbar(done, { variant: 'success' });
    } catch {
      enqueueSnackbar(failed, { variant: 'error' });
    }
  };
  return { copied, copy };
}
