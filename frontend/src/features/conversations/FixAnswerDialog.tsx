import { CORRECTION_LIMITS } from '@botsmith/contract';
import Dialog from '@mui/material/Dialog';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { conversationsApi } from '../../api';
import { CountedTextField } from '../../components/CountedTextField';
import { DialogForm, useDialogForm } from '../../components/DialogForm';
import { serverMessage } from '../../api/serverMessage';

/** What the dialog corrects: a bot and the visitor's question, prefilled. */
export interface FixTarget {
  botId: number;
  question: string;
}

export interface FixAnswerDialogProps {
  /** null closes the dialog. */
  target: FixTarget | null;
  onClose: () => void;
  /** Called with the target once its correction is saved, before the dialog closes. */
  onSaved?: (target: FixTarget) => void;
}

const { questionMaxChars, answerMaxChars } = CORRECTION_LIMITS;

/** "Fix this answer": the owner writes the answer the bot gives from now on to this question and close variants. */
export function FixAnswerDialog({ target, onClose, onSaved }: FixAnswerDialogProps) {
  return (
    <Dialog open={target !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="fix-answer-title">
      {/* Keyed by the target so each opening starts from its own question. */}
      {target && (
        <FixAnswerForm key={`${target.botId}:${target.question}`} target={target} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

function FixAnswerForm({
  target,
  onClose,
  onSaved,
}: {
  target: FixTarget;
  onClose: () => void;
  onSaved?: (target: FixTarget) => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const [question, setQuestion] = useState(target.question.slice(0, questionMaxChars));
  const [answer, setAnswer] = useState('');
  const form = useDialogForm((failure) => serverMessage(failure) ?? 'The answer could not be saved. Please try again.');

  const questionError = question.trim() ? null : 'Write the question visitors ask.';
  const answerError = answer.trim() ? null : 'Write the answer the bot should give.';

  const close = () => {
    if (!form.saving) onClose();
  };

  const save = async () => {
    await conversationsApi.correct(target.botId, { question: question.trim(), answer: answer.trim() });
    enqueueSnackbar('Answer saved: the bot gives it from now on.', { variant: 'success' });
    onSaved?.(target);
    onClose();
  };

  return (
    <DialogForm
      titleId="fix-answer-title"
      title="Fix this answer"
      description="Write the answer you want. The bot uses it first whenever a visitor asks this question or a close variant."
      form={form}
      onSubmit={(event) => void form.submit(event, !questionError && !answerError, save)}
      onCancel={close}
      submitLabel="Save answer"
    >
      <CountedTextField
        label="Visitor's question"
        value={question}
        onChange={(event) => setQuestion(event.target.value)}
        multiline
        maxRows={4}
        errorText={form.touched ? questionError : null}
        maxLength={questionMaxChars}
      />
      <CountedTextField
        label="Answer"
        value={answer}
        onChange={(event) => setAnswer(event.target.value)}
        autoFocus
        multiline
        minRows={5}
        maxRows={12}
        errorText={form.touched ? answerError : null}
        maxLength={answerMaxChars}
      />
    </DialogForm>
  );
}
