import type { FormEvent } from 'react';
import type { SourceResponse } from '../../api/types';
import { useDialogForm } from '../../components/DialogForm';
import { serverMessage } from '../../api/serverMessage';

export interface AddSourceFormOptions {
  /** The error shown when the server gives no message of its own. */
  failureText: string;
  /** Puts the dialog's fields back as they are when it first opens. */
  clearFields: () => void;
  onClose: () => void;
  /** Called with the new source's name once the server accepted it. */
  onAdded: (name: string) => void;
}

/**
 * The form of a dialog that adds one knowledge source: closing it clears its fields, so it opens
 * empty next time, and a source the server accepted is reported by name and closes it.
 */
export function useAddSourceForm({ failureText, clearFields, onClose, onAdded }: AddSourceFormOptions) {
  const form = useDialogForm((failure) => serverMessage(failure) ?? failureText);

  const close = () => {
    clearFields();
    form.reset();
    onClose();
  };

  /** Adds the source with `add` when the fields are `valid`; from now on they show their errors. */
  const submit = (event: FormEvent, valid: boolean, add: () => Promise<{ source: SourceResponse }>) =>
    void form.submit(event, valid, async () => {
      const { source } = await add();
      onAdded(source.name);
      close();
    });

  return { form, close, submit };
}
