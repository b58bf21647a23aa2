import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { WIDGET_LANGUAGES, WIDGET_LANGUAGE_NAMES, type WidgetLanguageChoice } from '@botsmith/contract';
import { botsApi } from '../../api';
import type { BotResponse, BotDetailsUpdate, ModelTier, CategoryResponse } from '../../api/types';
import { BOT_LIMITS, isBareDomain, MODEL_OPTIONS } from './botOptions';
import { detailsOf } from './botForms';
import { serverMessage } from '../../api/serverMessage';
import { SaveBar } from './SaveBar';
import { useTabDraft } from './tabDrafts';
import { savedStarterQuestions, StarterQuestionsField, starterQuestionsError } from './StarterQuestionsField';

export interface DetailsTabProps {
  bot: BotResponse;
  categories: CategoryResponse[];
  onSaved: (bot: BotResponse) => void;
}

const NO_CATEGORY = 'none';

/** The Details tab: name, greeting, starter questions, widget language, model (and whether visitors see its name), category and allowed domain. */
export function DetailsTab({ bot, categories, onSaved }: DetailsTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [form, setForm] = useTabDraft<BotDetailsUpdate>('details', detailsOf(bot));
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const nameError = form.name.trim() === '' ? 'Bot name is required.' : null;
  const domainError = isBareDomain(form.allowedDomain)
    ? null
    : 'Enter the domain only, without http://, a path or a port (for example shop.example.com).';
  const questionsError = starterQuestionsError(form.starterQuestions);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameError || domainError || questionsError) return;
    setSaving(true);
    setError(null);
    try {
      const { bot: saved } = await botsApi.update(bot.id, {
        ...form,
        name: form.name.trim(),
        starterQuestions: savedStarterQuestions(form.starterQuestions),
      });
      onSaved(saved);
      setForm(detailsOf(saved));
      enqueueSnackbar('Bot details updated successfully!', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure));
      enqueueSnackbar('Error updating bot details.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void save(event)} aria-label="Details">
      <Stack spacing={2.5} sx={{ pb: 2 }}>
        <TextField
          label="Name"
          required
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
          onBlur={() => setTouched(true)}
          error={touched && Boolean(nameError)}
          helperText={touched && nameError ? nameError : 'Visitors see it in the chat window banner.'}
          slotProps={{ htmlInput: { maxLength: BOT_LIMITS.nameMax } }}
        />
        <TextField
          label="Custom greeting"
          value={form.customGreeting}
          onChange={(event) => setForm({ ...form, customGreeting: event.target.value })}
          helperText="The first message of every conversation."
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: BOT_LIMITS.greetingMax } }}
        />
        <StarterQuestionsField
          questions={form.starterQuestions}
          onChange={(starterQuestions) => setForm({ ...form, starterQuestions })}
          errorText={touched ? questionsError : null}
        />
        <TextField
          select
          label="Widget language"
          value={form.widgetLanguage}
          onChange={(event) => setForm({ ...form, widgetLanguage: event.target.value as WidgetLanguageChoice })}
          helperText="The language of the widget's own buttons and messages. Your greeting, banner and placeholder stay as you wrote them."
        >
          <MenuItem value="auto">Automatic (the visitor's browser language)</MenuItem>
          {WIDGET_LANGUAGES.map((language) => (
            <MenuItem key={language} value={language} lang={language}>
              {WIDGET_LANGUAGE_NAMES[language]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Model"
          value={form.model}
          onChange={(event) => setForm({ ...form, model: event.target.value as ModelTier })}
          helperText="Larger models write better answers and cost a little more per message."
        >
          {MODEL_OPTIONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              <Stack direction="row" sx={{ width: '100%', justifyContent: 'space-between', gap: 2 }}>
                <span>{option.label}</span>
                <Typography component="span" variant="body2" color="textSecondary">
                  {option.price}
                </Typography>
              </Stack>
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <FormControlLabel
            control={
              <Switch
                checked={form.showModelLabel}
                onChange={(event) => setForm({ ...form, showModelLabel: event.target.checked })}
              />
            }
            label="Show the model's name to visitors"
          />
          <Typography variant="body2" color="textSecondary">
            Off by default: visitors see no model name under the message box.
          </Typography>
        </Box>
        <TextField
          select
          label="Category"
          value={form.categoryId === null ? NO_CATEGORY : String(form.categoryId)}
          onChange={(event) =>
            setForm({ ...form, categoryId: event.target.value === NO_CATEGORY ? null : Number(event.target.value) })
          }
        >
          <MenuItem value={NO_CATEGORY}>
            <em>No category</em>
          </MenuItem>
          {categories.length > 0 && <ListSubheader>Your categories</ListSubheader>}
          {categories.map((category) => (
            <MenuItem key={category.id} value={String(category.id)}>
              {category.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Allowed domain"
          value={form.allowedDomain}
          placeholder="example.com"
          onChange={(event) => setForm({ ...form, allowedDomain: event.target.value })}
          error={Boolean(domainError)}
          helperText={
            domainError ??
            'Full domain without protocol or path, e.g. example.com. Its subdomains are allowed too; leave empty to allow any site.'
          }
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none', inputMode: 'url' } }}
        />
        <Alert severity="info" variant="outlined">
          The domain lock stops other websites from showing your bot in their visitors&apos; browsers. It cannot stop a
          script: anyone can call your bot from outside a browser. What a script can spend is bounded by the bot&apos;s
          monthly budget (Usage tab) and its rate limits.
        </Alert>
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
      <SaveBar label="Save Details" saving={saving} />
    </Box>
  );
}
