import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { botsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from '../../api/serverMessage';
import { SaveBar } from './SaveBar';
import { useTabDraft } from './tabDrafts';

export interface PromptingTabProps {
  bot: BotResponse;
  onSaved: (bot: BotResponse) => void;
}

const { maxTokens: TOKENS, temperature: TEMPERATURE } = BOT_LIMITS;

/** The Prompting tab: instructions, answer length and creativity (what the bot knows is the Knowledge tab). */
export function PromptingTab({ bot, onSaved }: PromptingTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  // Kept by the dialog while the owner visits other tabs (tabDrafts.ts).
  const [fields, setFields] = useTabDraft('prompting', {
    prompt: bot.prompt,
    maxTokens: String(bot.maxTokens),
    temperature: bot.temperature,
    temperatureText: String(bot.temperature),
  });
  const { prompt, maxTokens, temperature, temperatureText } = fields;
  const setField =
    <K extends keyof typeof fields>(key: K) =>
    (value: (typeof fields)[K]) =>
      setFields((current) => ({ ...current, [key]: value }));
  const setPrompt = setField('prompt');
  const setMaxTokens = setField('maxTokens');
  const setTemperature = setField('temperature');
  const setTemperatureText = setField('temperatureText');
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
    </>
  );
}
