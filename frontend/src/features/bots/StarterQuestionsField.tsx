import AddRounded from '@mui/icons-material/AddRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { STARTER_QUESTIONS_LIMITS } from '@botsmith/contract';
import { CountedTextField } from '../../components/CountedTextField';

export interface StarterQuestionsFieldProps {
  questions: string[];
  onChange: (questions: string[]) => void;
  /** Shown under the list when the questions cannot be saved as they are. */
  errorText?: string | null;
}

const { count: MAX_QUESTIONS, length: MAX_LENGTH } = STARTER_QUESTIONS_LIMITS;

/** The questions as they would be saved: trimmed, blank ones left out. */
export function savedStarterQuestions(questions: string[]): string[] {
  return questions.map((question) => question.trim()).filter((question) => question !== '');
}

/** Why the questions cannot be saved (the server refuses the same), or null. */
export function starterQuestionsError(questions: string[]): string | null {
  const saved = savedStarterQuestions(questions).map((question) => question.toLocaleLowerCase());
  return new Set(saved).size < saved.length ? 'Each starter question must be different.' : null;
}

/**
 * Details tab: up to four questions a visitor can tap under the greeting to start
 * (docs/product.md#starter-questions). Blank rows are left out when saving.
 */
export function StarterQuestionsField({ questions, onChange, errorText }: StarterQuestionsFieldProps) {
  const change = (index: number, value: string) =>
    onChange(questions.map((question, i) => (i === index ? value : question)));
  const remove = (index: number) => onChange(questions.filter((_, i) => i !== index));

  return (
    <Stack spacing={1.5} role="group" aria-labelledby="starter-questions-label">
      <div>
        <Typography id="starter-questions-label" variant="subtitle2" component="h3">
          Starter questions
        </Typography>
        <Typography variant="body2" color="textSecondary">
          Up to {MAX_QUESTIONS} questions visitors can tap to start, shown under the greeting until the first message.
        </Typography>
      </div>
      {questions.map((question, index) => (
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <CountedTextField
            label={`Starter question ${index + 1}`}
            value={question}
            maxLength={MAX_LENGTH}
            onChange={(event) => change(index, event.target.value)}
            size="small"
            fullWidth
          />
          <IconButton
            aria-label={`Remove starter question ${index + 1}`}
            onClick={() => remove(index)}
            sx={{ mt: 0.5 }}
          >
            <DeleteOutlineRounded />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button
          startIcon={<AddRounded />}
          onClick={() => onChange([...questions, ''])}
          disabled={questions.length >= MAX_QUESTIONS}
        >
          Add a starter question
        </Button>
      </div>
      {errorText && <FormHelperText error>{errorText}</FormHelperText>}
    </Stack>
  );
}
