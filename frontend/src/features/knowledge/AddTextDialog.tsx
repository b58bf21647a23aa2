import { useState } from 'react';
import { knowledgeApi } from '../../api';
import { CountedTextField, HintedTextField } from '../../components/CountedTextField';
import { FormDialog, useDialogForm } from '../../components/DialogForm';
import { serverMessage } from '../bots/botForms';
import { KNOWLEDGE_LIMITS } from './knowledgeLimits';

export interface AddTextDialogProps {
  botId: number;
  open: boolean;
  onClose: () => void;
  onAdded: (name: string) => void;
}

const { nameMaxChars, textMaxChars } = KNOWLEDGE_LIMITS;

/** A written answer or note: a name and its text, ready as soon as it is saved. */
export function AddTextDialog({ botId, open, onClose, onAdded }: AddTextDialogProps) {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const form = useDialogForm(
    (failure) => serverMessage(failure) ?? 'The written answer could not be saved. Please try again.',
  );

  const nameError = name.trim() ? null : 'Give the written answer a name.';
  const textError = text.trim() ? null : 'Write the answer.';

  const reset = () => {
    setName('');
    setText('');
    form.reset();
  };
  const close = () => {
    reset();
    onClose();
  };

  const save = async () => {
    const { source } = await knowledgeApi.addText(botId, name.trim(), text);
    onAdded(source.name);
    close();
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      titleId="add-text-title"
      title="Add a written answer"
      form={form}
      onSubmit={(event) => void form.submit(event, !nameError && !textError, save)}
      submitLabel="Add answer"
    >
      <HintedTextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder="Opening hours"
        autoFocus
        errorText={form.touched ? nameError : null}
        hint="For you: it names the answer in this list and in citations."
        slotProps={{ htmlInput: { maxLength: nameMaxChars } }}
      />
      <CountedTextField
        label="Answer"
        value={text}
        onChange={(event) => setText(event.target.value)}
        multiline
        minRows={6}
        maxRows={14}
        placeholder="We are open Monday to Friday, 9:00 to 17:00, and on Saturdays until 13:00."
        errorText={form.touched ? textError : null}
        maxLength={textMaxChars}
      />
    </FormDialog>
  );
}
