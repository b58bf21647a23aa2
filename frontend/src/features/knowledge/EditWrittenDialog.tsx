import { CORRECTION_LIMITS } from '@botsmith/contract';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useCallback, useEffect, useState } from 'react';
import { knowledgeApi } from '../../api';
import type { SourceResponse } from '../../api/types';
import { CountedTextField, HintedTextField } from '../../components/CountedTextField';
import { DialogForm, useDialogForm } from '../../components/DialogForm';
import { RetryAlert } from '../../components/RetryAlert';
import { useApiResource } from '../../hooks/useApiResource';
import { serverMessage } from '../../api/serverMessage';
import { KNOWLEDGE_LIMITS } from './knowledgeLimits';

export interface EditWrittenDialogProps {
  botId: number;
  /** The written answer or correction to edit; null closes the dialog. */
  source: SourceResponse | null;
  onClose: () => void;
  onSaved: (source: SourceResponse) => void;
}

export const TEXT_LOAD_FAILED = 'The answer could not be loaded.';

/**
 * Edits a written answer (its question, which names it, and its answer) or a correction (the
 * visitor question it answers first, and the answer): the answer is loaded as it was written.
 */
export function EditWrittenDialog({ botId, source, onClose, onSaved }: EditWrittenDialogProps) {
  const [saving, setSaving] = useState(false);
  const close = () => {
    if (!saving) onClose();
  };
  return (
    <Dialog open={source !== null} onClose={close} fullWidth maxWidth="sm" aria-labelledby="edit-written-title">
      {source && (
        <EditWrittenForm
          key={source.id}
          botId={botId}
          source={source}
          onClose={close}
          onSaved={onSaved}
          onSaving={setSaving}
        />
      )}
    </Dialog>
  );
}

interface EditWrittenFormProps {
  botId: number;
  source: SourceResponse;
  onClose: () => void;
  onSaved: (source: SourceResponse) => void;
  onSaving: (saving: boolean) => void;
}

/** One source's form, mounted afresh for each source opened: its answer is loaded first. */
function EditWrittenForm({ botId, source, onClose, onSaved, onSaving }: EditWrittenFormProps) {
  const load = useCallback((signal: AbortSignal) => knowledgeApi.text(botId, source.id, signal), [botId, source.id]);
  const text = useApiResource(load);
  const title = source.correction ? 'Edit correction' : 'Edit written answer';

  if (text.status === 'ready') {
    return (
      <WrittenFields
        botId={botId}
        source={source}
        title={title}
        loadedAnswer={text.data.text}
        onClose={onClose}
        onSaved={onSaved}
        onSaving={onSaving}
      />
    );
  }
  return (
    <>
      <DialogTitle id="edit-written-title">{title}</DialogTitle>
      <DialogContent>
        {text.status === 'loading' ? (
          <Stack spacing={2} aria-busy="true" aria-label="Loading the answer" sx={{ pt: 1, pb: 2 }}>
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={140} />
          </Stack>
        ) : (
          <RetryAlert onRetry={text.reload} sx={{ mb: 2 }}>
            {serverMessage(text.error) ?? TEXT_LOAD_FAILED}
          </RetryAlert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </>
  );
}

/** The question and the answer as loaded, edited and saved. */
function WrittenFields({
  botId,
  source,
  title,
  loadedAnswer,
  onClose,
  onSaved,
  onSaving,
}: EditWrittenFormProps & { title: string; loadedAnswer: string }) {
  const correction = source.correction;
  const [question, setQuestion] = useState(correction ? (source.question ?? source.name) : source.name);
  const [answer, setAnswer] = useState(loadedAnswer);
  const form = useDialogForm((failure) => serverMessage(failure) ?? 'The answer could not be saved. Please try again.');
  const { saving } = form;
  useEffect(() => onSaving(saving), [onSaving, saving]);

  const questionMax = correction ? CORRECTION_LIMITS.questionMaxChars : KNOWLEDGE_LIMITS.nameMaxChars;
  const answerMax = correction ? CORRECTION_LIMITS.answerMaxChars : KNOWLEDGE_LIMITS.textMaxChars;
  const questionError = question.trim() ? null : 'Write the question.';
  const answerError = answer.trim() ? null : 'Write the answer.';
  return (
    <DialogForm
      titleId="edit-written-title"
      title={title}
      description={
        correction
          ? 'The bot gives this answer first whenever a visitor asks this question or a close variant.'
          : undefined
      }
      form={form}
      onCancel={onClose}
      submitLabel="Save"
      onSubmit={(event) =>
        void form.submit(event, !questionError && !answerError, async () => {
          const { source: saved } = correction
            ? await knowledgeApi.updateCorrection(botId, source.id, question.trim(), answer)
            : await knowledgeApi.updateText(botId, source.id, question.trim(), answer);
          onSaved(saved);
        })
      }
    >
      <HintedTextField
        label="Question"
        value={question}
        onChange={(event) => setQuestion(event.target.value)}
        autoFocus
        errorText={form.touched ? questionError : null}
        hint={
          correction
            ? 'The visitor question this answer fixes.'
            : 'What a visitor asks. It also names the answer in this list and in citations.'
        }
        slotProps={{ htmlInput: { maxLength: questionMax } }}
      />
      <CountedTextField
        label="Answer"
        value={answer}
        onChange={(event) => setAnswer(event.target.value)}
        multiline
        minRows={6}
        maxRows={14}
        errorText={form.touched ? answerError : null}
        maxLength={answerMax}
      />
    </DialogForm>
  );
}
