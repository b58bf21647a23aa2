import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  LEAD_FIELDS,
  LEAD_LIMITS,
  LEAD_OFFER_WHEN,
  LEAD_THANK_YOU_DEFAULT,
  type LeadCaptureSettings,
  type LeadField,
  type LeadOfferWhen,
} from '@botsmith/contract';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { botsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { CountedTextField } from '../../components/CountedTextField';
import { MailLimitNotice } from '../../components/MailLimitNotice';
import { serverMessage } from '../../api/serverMessage';
import { NotifyEmailStates } from './NotifyEmailStates';
import { SaveBar } from './SaveBar';
import { useTabDraft } from './tabDrafts';

export interface LeadsTabProps {
  bot: BotResponse;
  /** The owner's account address: where leads go when no address is listed. */
  ownerEmail?: string;
  onSaved: (bot: BotResponse) => void;
}

const FIELD_LABELS: Record<LeadField, string> = {
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  message: 'Message',
};

const OFFER_LABELS: Record<LeadOfferWhen, string> = {
  cap: 'At the budget (instead of hiding the bot when it cannot answer)',
  request: 'When the visitor asks for a person',
  unanswered: 'When an answer is flagged unanswered',
  start: 'Before the first message',
};

/** A plain address check; the server applies the full rule. */
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** The addresses as typed in one field: separated by commas, semicolons or spaces. */
export function parseNotifyEmails(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/** Why the addresses cannot be saved, or null. */
export function notifyEmailsError(addresses: string[]): string | null {
  if (addresses.length > LEAD_LIMITS.notifyEmails) return `At most ${LEAD_LIMITS.notifyEmails} addresses.`;
  const bad = addresses.find((address) => !EMAIL.test(address) || address.length > LEAD_LIMITS.email);
  return bad ? `${bad} is not a valid e-mail address.` : null;
}

/** Toggles `value` in a list kept in the order of `all`. */
function toggled<T extends string>(all: readonly T[], list: T[], value: T, on: boolean): T[] {
  return all.filter((item) => (item === value ? on : list.includes(item)));
}

/**
 * The Leads tab (docs/product.md#leads-and-handoff): whether the widget offers a contact form,
 * which fields it asks for (the e-mail or the phone at least), when it offers it, where leads are
 * e-mailed and what the visitor reads after sending it.
 */
export function LeadsTab({ bot, ownerEmail, onSaved }: LeadsTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  // Kept by the dialog while the owner visits other tabs (tabDrafts.ts).
  const [draft, setDraft] = useTabDraft('leads', {
    setting: bot.leadCapture,
    emailsText: bot.leadCapture.notifyEmails.join(', '),
  });
  const { setting, emailsText } = draft;
  const setSetting = (update: (current: LeadCaptureSettings) => LeadCaptureSettings) =>
    setDraft((current) => ({ ...current, setting: update(current.setting) }));
  const setEmailsText = (text: string) => setDraft((current) => ({ ...current, emailsText: text }));
  const [saving, setSaving] = useState(false);
  /** Counts saves: the addresses' confirmation states are read again after each. */
  const [saves, setSaves] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const notifyEmails = parseNotifyEmails(emailsText);
  const emailsError = notifyEmailsError(notifyEmails);
  const fieldsError =
    setting.fields.includes('email') || setting.fields.includes('phone')
      ? null
      : 'Ask for the e-mail or the phone, so you can reply.';
  const invalid = Boolean(emailsError || fieldsError);
  const change = (patch: Partial<LeadCaptureSettings>) => setSetting((current) => ({ ...current, ...patch }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    setSaving(true);
    setError(null);
    try {
      const { bot: saved } = await botsApi.update(bot.id, {
        leadCapture: { ...setting, notifyEmails, thankYouText: setting.thankYouText.trim() },
      });
      onSaved(saved);
      setDraft({ setting: saved.leadCapture, emailsText: saved.leadCapture.notifyEmails.join(', ') });
      setSaves((n) => n + 1);
      enqueueSnackbar('Lead settings saved!', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure));
      enqueueSnackbar('Error saving lead settings.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void save(event)} aria-label="Leads">
      <Stack spacing={3} sx={{ pb: 2 }}>
        <MailLimitNotice kept="leads" />
        <Box>
          <FormControlLabel
            control={
              <Switch checked={setting.enabled} onChange={(event) => change({ enabled: event.target.checked })} />
            }
            label="Collect leads"
          />
          <Typography variant="body2" color="textSecondary">
            The widget offers visitors a short form to leave their contact, and the conversation is handed to you. Each
            lead is e-mailed to you and listed under Leads.
          </Typography>
        </Box>

        <FormControl component="fieldset" error={Boolean(fieldsError)} disabled={!setting.enabled}>
          <FormLabel component="legend">Fields of the form</FormLabel>
          <FormGroup row>
            {LEAD_FIELDS.map((field) => (
              <FormControlLabel
                key={field}
                label={FIELD_LABELS[field]}
                control={
                  <Checkbox
                    checked={setting.fields.includes(field)}
                    onChange={(event) =>
                      change({ fields: toggled(LEAD_FIELDS, setting.fields, field, event.target.checked) })
                    }
                  />
                }
              />
            ))}
          </FormGroup>
          <FormHelperText>{fieldsError ?? 'The e-mail or the phone is required, so you can reply.'}</FormHelperText>
        </FormControl>

        <FormControl component="fieldset" disabled={!setting.enabled}>
          <FormLabel component="legend">Offer the form</FormLabel>
          <FormGroup>
            {LEAD_OFFER_WHEN.map((when) => (
              <FormControlLabel
                key={when}
                label={OFFER_LABELS[when]}
                control={
                  <Checkbox
                    checked={setting.offerWhen.includes(when)}
                    onChange={(event) =>
                      change({ offerWhen: toggled(LEAD_OFFER_WHEN, setting.offerWhen, when, event.target.checked) })
                    }
                  />
                }
              />
            ))}
          </FormGroup>
        </FormControl>

        <TextField
          label="Send leads to"
          value={emailsText}
          onChange={(event) => setEmailsText(event.target.value)}
          placeholder={ownerEmail ?? 'Your account address'}
          error={Boolean(emailsError)}
          helperText={
            emailsError ??
            `Up to ${LEAD_LIMITS.notifyEmails} addresses, separated by commas. Empty: your account address${ownerEmail ? ` (${ownerEmail})` : ''}.`
          }
          disabled={!setting.enabled}
          slotProps={{ htmlInput: { inputMode: 'email', autoComplete: 'off' } }}
        />
        <NotifyEmailStates key={saves} botId={bot.id} />

        <CountedTextField
          label="Thank-you text"
          value={setting.thankYouText}
          maxLength={LEAD_LIMITS.thankYouText}
          onChange={(event) => change({ thankYouText: event.target.value })}
          placeholder={LEAD_THANK_YOU_DEFAULT}
          disabled={!setting.enabled}
        />

        <Alert severity="info" variant="outlined">
          The widget shows the form in the visitor&apos;s language, inside the conversation. At the budget its launcher
          stays, says &ldquo;Leave a message&rdquo; and opens the form; on request, visitors find &ldquo;Talk to a
          person&rdquo; in the widget&apos;s menu. Once a visitor leaves their details, the bot stays quiet in that
          conversation and your replies from Conversations appear in their open widget.
        </Alert>

        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
      <SaveBar label="Save Leads" saving={saving} disabled={invalid} />
    </Box>
  );
}
