import { useState } from 'react';
import { knowledgeApi } from '../../api';
import { CountedTextField, HintedTextField } from '../../components/CountedTextField';
import { FormDialog } from '../../components/DialogForm';
import { KNOWLEDGE_LIMITS } from './knowledgeLimits';
import { useAddSourceForm } from './useAddSourceForm';

export interface AddTextDialogProps {
  botId: number;
  open: boolean;
  onClose: () => void;
  onAdded: (name: string) => void;
}

const { nameMaxChars, textMaxChars } = KNOWLEDGE_LIMITS;

/** A written answer: the question a visitor asks (which names it) and its answer, ready as soon as it is saved. */
export function AddTextDialog({ botId, open, onClose, onAdded }: AddTextDialogProps) {
  const [name, setName] = useState('');
  const [text, setText] = useState('');

  const nameError = name.trim() ? null : 'Write the question.';
  const textError = text.trim() ? null : 'Write the answer.';

  const { form, close, submit } = useAddSourceForm({
    failureText: 'The written answer could not be saved. Please try again.',
    clearFields: () => {
      setName('');
      setText('');
    },
    onClose,
    onAdded,
  });

  return (
    <FormDialog
      open={open}
      onClose={close}
      titleId="add-text-title"
      title="Add a written answer"
      form={form}
      onSubmit={(event) =>
        submit(event, !nameError && !textError, () => knowledgeApi.addText(botId, name.trim(), text))
      }
      submitLabel="Add answer"
    >
      <HintedTextField
        label="Question"
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder="When are you open?"
        autoFocus
        errorText={form.touched ? nameError : null}
        hint="What a visitor asks. It also names the answer in this list and in citations."
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
