import { DEFAULT_COLOURS, type ColourField } from '@botsmith/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useSnackbar } from 'notistack';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { botsApi } from '../../api';
import type { BotResponse, Animation, BotStylingUpdate, WidgetPosition } from '../../api/types';
import { ANIMATION_OPTIONS, BOT_LIMITS, isRadius, POSITION_OPTIONS } from './botOptions';
import { stylingOf } from './botForms';
import { serverMessage } from '../../api/serverMessage';
import { ContrastCheck } from './ContrastCheck';
import { GradientField } from './GradientField';
import { IconUpload } from './IconUpload';
import { SaveBar } from './SaveBar';
import { useTabDraft } from './tabDrafts';
import { useWidgetPreview } from './useWidgetPreview';

export interface StylingTabProps {
  bot: BotResponse;
  onSaved: (bot: BotResponse) => void;
  /** Where the live preview sits while it is shown (null: not shown), so the modal can make room. */
  onPreviewSide?: (side: WidgetPosition | null) => void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="overline" component="h3" color="textSecondary" sx={{ display: 'block', mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))' }}>
        {children}
      </Box>
    </Box>
  );
}

/**
 * The Styling tab: every colour solid or, as an option, a gradient (direction and two colours), the
 * contrast of every text/background pair with its fixes, the launcher icon, radii, texts, animation
 * and position. The real widget previews the unsaved values live.
 */
export function StylingTab({ bot, onSaved, onPreviewSide }: StylingTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const wide = useMediaQuery(useTheme().breakpoints.up('md'));
  const [form, setForm] = useTabDraft<BotStylingUpdate>('styling', stylingOf(bot));
  const [showPreviewOnPhone, setShowPreviewOnPhone] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const previewing = wide || showPreviewOnPhone;

  const detail = useMemo(() => ({ ...form, name: bot.name, customGreeting: bot.customGreeting }), [form, bot]);
  useWidgetPreview(bot.id, detail, previewing);
  useEffect(() => {
    onPreviewSide?.(previewing && wide ? form.widgetPosition : null);
  }, [onPreviewSide, previewing, wide, form.widgetPosition]);
  useEffect(() => () => onPreviewSide?.(null), [onPreviewSide]);

  const set = <K extends keyof BotStylingUpdate>(key: K, value: BotStylingUpdate[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  // An unreadable stored colour shows as a new bot's colour for that field.
  const gradient = (key: ColourField, label: string) => (
    <GradientField
      label={label}
      value={form[key]}
      fallback={DEFAULT_COLOURS[key]}
      onChange={(value) => set(key, value)}
    />
  );

  const bubbleRadiusError = !isRadius(form.bubbleBorderRadius);
  const windowRadiusError = !isRadius(form.chatWindowBorderRadius);
  const invalid = bubbleRadiusError || windowRadiusError;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    setSaving(true);
    setError(null);
    try {
      const { bot: saved } = await botsApi.update(bot.id, form);
      onSaved(saved);
      setForm(stylingOf(saved));
      enqueueSnackbar('Styling updated successfully!', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure));
      enqueueSnackbar('Error updating styling.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void save(event)} aria-label="Styling">
      {wide ? (
        <Alert severity="info" variant="outlined" sx={{ mb: 3 }}>
          Live preview: your widget is shown at the {form.widgetPosition === 'left' ? 'bottom left' : 'bottom right'} of
          this page and follows your changes before you save.
        </Alert>
      ) : (
        <FormControlLabel
          sx={{ mb: 2 }}
          control={<Switch checked={showPreviewOnPhone} onChange={(_, checked) => setShowPreviewOnPhone(checked)} />}
          label="Show live preview"
        />
      )}

      <ContrastCheck styling={form} onFix={(changes) => setForm((current) => ({ ...current, ...changes }))} />

      <Section title="Launcher">
        {gradient('bubbleColor', 'Bubble colour')}
        {gradient('bubbleTextColor', 'Bubble icon colour')}
        <Box sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 2 }}>
          <IconUpload
            botId={bot.id}
            value={form.bubbleIcon}
            background={form.bubbleColor}
            onUploaded={(fileUrl) => {
              set('bubbleIcon', fileUrl);
              onSaved({ ...bot, bubbleIcon: fileUrl });
            }}
            onRemove={() => set('bubbleIcon', '')}
          />
        </Box>
        <Stack spacing={1.5}>
          <TextField
            label="Bubble radius"
            value={form.bubbleBorderRadius}
            onChange={(event) => set('bubbleBorderRadius', event.target.value)}
            error={bubbleRadiusError}
            helperText={bubbleRadiusError ? 'Use 0, a size like 12px, or a percentage like 50%.' : '50% is a circle.'}
          />
          <TextField
            select
            label="Animation"
            value={form.animation}
            onChange={(event) => set('animation', event.target.value as Animation)}
          >
            {ANIMATION_OPTIONS.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
          <Box>
            <Typography variant="body2" color="textSecondary" id="widget-position-label" sx={{ mb: 0.5 }}>
              Widget position
            </Typography>
            <ToggleButtonGroup
              exclusive
              size="small"
              color="primary"
              value={form.widgetPosition}
              aria-labelledby="widget-position-label"
              onChange={(_, value: WidgetPosition | null) => value && set('widgetPosition', value)}
            >
              {POSITION_OPTIONS.map((option) => (
                <ToggleButton key={option.value} value={option.value} sx={{ px: 3 }}>
                  {option.label}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        </Stack>
      </Section>

      <Section title="Chat window">
        {gradient('widgetBackgroundColor', 'Window background')}
        <TextField
          label="Window radius"
          value={form.chatWindowBorderRadius}
          onChange={(event) => set('chatWindowBorderRadius', event.target.value)}
          error={windowRadiusError}
          helperText={windowRadiusError ? 'Use 0, a size like 12px, or a percentage like 5%.' : 'For example 10px.'}
        />
      </Section>

      <Section title="Banner">
        {gradient('bannerColor', 'Banner colour')}
        {gradient('bannerTextColor', 'Banner text colour')}
        <TextField
          label="Banner disclaimer"
          value={form.bannerDisclaimer}
          onChange={(event) => set('bannerDisclaimer', event.target.value)}
          helperText={`Shown under the bot's name. ${form.bannerDisclaimer.length}/${BOT_LIMITS.disclaimerMax}`}
          slotProps={{ htmlInput: { maxLength: BOT_LIMITS.disclaimerMax } }}
          multiline
          minRows={2}
          sx={{ gridColumn: '1 / -1' }}
        />
      </Section>

      <Section title="Messages">
        {gradient('widgetBubbleColor', 'Visitor message colour')}
        {gradient('assistantBubbleColor', 'Bot message colour')}
        {gradient('assistantBubbleTextColor', 'Bot message text colour')}
      </Section>

      <Section title="Message box">
        <TextField
          label="Placeholder text"
          value={form.placeholderText}
          onChange={(event) => set('placeholderText', event.target.value)}
          slotProps={{ htmlInput: { maxLength: BOT_LIMITS.placeholderMax } }}
        />
        {gradient('placeholderTextColor', 'Placeholder text colour')}
        {gradient('sendButtonColor', 'Send button colour')}
        {gradient('sendArrowColor', 'Send arrow colour')}
      </Section>

      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <SaveBar label="Save Styling" saving={saving} disabled={invalid} />
    </Box>
  );
}
