import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { botsApi } from '../../api';
import { KnowledgeSection } from '../knowledge/KnowledgeSection';
import type { Bot, BotDocument } from '../../api/types';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from './botForms';
import { DocumentDropzone } from './DocumentDropzone';
import { SaveBar } from './SaveBar';

export interface PromptingTabProps {
  bot: Bot;
  onSaved: (bot: Bot) => void;
}

const { maxTokens: TOKENS, temperature: TEMPERATURE } = BOT_LIMITS;

/** The Prompting tab: instructions, answer length, creativity, and what the bot knows (its sources and reference PDF). */
export function PromptingTab({ bot, onSaved }: PromptingTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [prompt, setPrompt] = useState(bot.prompt);
  const [maxTokens, setMaxTokens] = useState(String(bot.maxTokens));
  const [temperature, setTemperature] = useState(bot.temperature);
  const [temperatureText, setTemperatureText] = useState(String(bot.temperature));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const tokens = Number(maxTokens);
  const tokensError =
    maxTokens === '' || !Number.isInteger(tokens) || tokens < TOKENS.min
      ? `Enter a number from ${TOKENS.min} to ${TOKENS.max}.`
      : null;

  // Entries above the maximum are ignored (docs/product.md#field-rules).
  const changeTokens = (text: string) => {
    if (text === '' || (/^\d+$/.test(text) && Number(text) <= TOKENS.max)) setMaxTokens(text);
  };
  const changeTemperature = (text: string) => {
    if (text === '' || /^\d(\.\d?)?$/.test(text)) {
      const value = Number(text);
      if (value > TEMPERATURE.max) return;
      setTemperatureText(text);
      if (text !== '' && !text.endsWith('.')) setTemperature(value);
    }
  };

  // The deleted source may have been the reference document: show the bot as the server has it.
  const reread = async () => {
    if (!bot.document) return;
    try {
      onSaved((await botsApi.get(bot.id)).bot);
    } catch {
      /* the document link stays until the dialog is opened again */
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (tokensError) return;
    setSaving(true);
    setError(null);
    try {
      const { bot: saved } = await botsApi.update(bot.id, { prompt, maxTokens: tokens, temperature });
      onSaved(saved);
      enqueueSnackbar('Prompting settings saved!', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure));
      enqueueSnackbar('Error saving prompting settings.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Box component="form" noValidate onSubmit={(event) => void save(event)} aria-label="Prompting">
        <Stack spacing={3} sx={{ pb: 2 }}>
          <TextField
            label="Prompt"
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            multiline
            minRows={6}
            maxRows={16}
            placeholder="You are the friendly assistant of Acme Outdoor. Answer questions about our tents and orders. Keep answers short."
            helperText={`Instructions the bot follows in every conversation. ${prompt.length}/${BOT_LIMITS.promptMax}`}
            slotProps={{ htmlInput: { maxLength: BOT_LIMITS.promptMax } }}
          />
          <Alert severity="info">
            The prompt is not a secret store: visitors can coax a model into repeating it. Never put passwords, API keys
            or anything else you would not show a visitor in it.
          </Alert>
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              label="Max tokens"
              value={maxTokens}
              onChange={(event) => changeTokens(event.target.value.trim())}
              error={Boolean(tokensError)}
              helperText={
                tokensError ?? `Longest answer, ${TOKENS.min} to ${TOKENS.max} tokens (about ¾ of a word each).`
              }
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <Box>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <TextField
                  label="Temperature"
                  value={temperatureText}
                  onChange={(event) => changeTemperature(event.target.value.trim())}
                  onBlur={() => setTemperatureText(String(temperature))}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  sx={{ width: 120, flexShrink: 0 }}
                />
                <Slider
                  aria-label="Temperature slider"
                  value={temperature}
                  min={TEMPERATURE.min}
                  max={TEMPERATURE.max}
                  step={TEMPERATURE.step}
                  marks={[
                    { value: 0, label: '0' },
                    { value: 1, label: '1' },
                    { value: 2, label: '2' },
                  ]}
                  valueLabelDisplay="auto"
                  onChange={(_, value) => {
                    const next = Math.round(value * 10) / 10;
                    setTemperature(next);
                    setTemperatureText(String(next));
                  }}
                />
              </Stack>
              <Typography variant="caption" color="textSecondary">
                Lower is focused and predictable, higher is more creative.
              </Typography>
            </Box>
          </Box>
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
        <SaveBar label="Save Prompting" saving={saving} disabled={Boolean(tokensError)} />
      </Box>
      {/* Outside the form: the Add dialogs' own forms would otherwise submit it (React events cross portals). */}
      <Divider sx={{ my: 3 }} />
      <KnowledgeSection botId={bot.id} revision={bot.document?.filePath ?? null} onDeleted={() => void reread()} />
      <Typography variant="subtitle1" component="h4" sx={{ mt: 4, mb: 0.5, fontWeight: 600 }}>
        Reference document
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        Upload a PDF (a handbook, price list or FAQ) and the bot will use it to answer. A new upload replaces the
        current document.
      </Typography>
      <DocumentDropzone
        botId={bot.id}
        document={bot.document}
        onUploaded={(document: BotDocument) => onSaved({ ...bot, document })}
      />
    </>
  );
}
