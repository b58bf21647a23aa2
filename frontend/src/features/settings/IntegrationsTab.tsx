import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@botsmith/contract';
import { useSnackbar } from 'notistack';
import { useCallback, useState, type FormEvent } from 'react';
import { webhooksApi } from '../../api';
import { ApiError } from '../../api/client';
import { useApiResource } from '../../hooks/useApiResource';
import { serverMessage } from '../../api/serverMessage';
import { formatDateTime } from '../../format/dateTime';

/** What each event means, as the owner reads it next to its checkbox. */
export const EVENT_LABELS: Record<WebhookEventType, string> = {
  'lead.created': 'A visitor leaves their contact details',
  'conversation.handoff': 'A conversation is handed to a person',
  'conversation.unanswered': 'The bot cannot answer a question',
  'bot.budget_reached': 'A bot reaches its monthly budget',
  'action.failed': "A bot's action fails (the owner's API errs, times out or cannot be reached)",
};

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};

const STATUS_COLOURS = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

function when(iso: string | null): string {
  return formatDateTime(iso) || '—';
}

const loadEndpoints = () => webhooksApi.list().then((answer) => answer.webhooks);

/**
 * Settings > Integrations (docs/product.md#webhooks): the owner's webhook endpoints, adding one
 * (its signing secret shown once), a test send, the delivery log, deleting one, and enabling one
 * disabled after failing for days.
 */
export function IntegrationsTab() {
  const list = useApiResource(loadEndpoints);
  const [secret, setSecret] = useState<string | null>(null);
  // After a change the list is read again quietly, so the endpoints (and an open delivery log) stay.
  const { refresh } = list;

  if (list.status === 'error') {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={list.reload}>
            Retry
          </Button>
        }
      >
        Error fetching your webhooks.
      </Alert>
    );
  }
  if (list.status === 'loading') {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label="Loading webhooks" />
      </Box>
    );
  }
  const endpoints = list.data;
  return (
    <Stack spacing={3}>
      <Typography variant="body2" color="textSecondary">
        Botsmith sends a signed POST to your HTTPS endpoints when these events happen. Failed deliveries are retried for
        24 hours.
      </Typography>
      {secret && <SecretNotice secret={secret} onDone={() => setSecret(null)} />}
      {endpoints.length === 0 ? (
        <Typography>No endpoints yet. Add one below.</Typography>
      ) : (
        <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} onChanged={refresh} />
          ))}
        </Stack>
      )}
      {endpoints.length < WEBHOOK_LIMITS.perOwner ? (
        <AddEndpointForm
          onAdded={(newSecret) => {
            setSecret(newSecret);
            refresh();
          }}
        />
      ) : (
        <Alert severity="info">You have {WEBHOOK_LIMITS.perOwner} endpoints, the most allowed.</Alert>
      )}
    </Stack>
  );
}

function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      enqueueSnackbar('Signing secret copied to clipboard!', { variant: 'success' });
    } catch {
      enqueueSnackbar('Failed to copy the secret.', { variant: 'error' });
    }
  };
  return (
    <Alert
      severity="success"
      action={
        <Stack direction="row" spacing={1}>
          <Button color="inherit" size="small" onClick={() => void copy()}>
            Copy
          </Button>
          <Button color="inherit" size="small" onClick={onDone}>
            Done
          </Button>
        </Stack>
      }
    >
      Endpoint added. Copy its signing secret now: it is not shown again.
      <Box component="code" data-testid="webhook-secret" sx={{ display: 'block', mt: 1, wordBreak: 'break-all' }}>
        {secret}
      </Box>
    </Alert>
  );
}

/** Refusals about the address itself: shown under the URL field, not in a banner. */
const URL_CODES: readonly string[] = ['URL_INVALID', 'URL_NOT_ALLOWED', 'VALIDATION_FAILED'];

function AddEndpointForm({ onAdded }: { onAdded: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [saving, setSaving] = useState(false);
  // One error, in one place (issue 27): no pop-up beside it.
  const [error, setError] = useState<{ text: string; onUrl: boolean } | null>(null);

  const toggle = (event: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      // Sent in the list's order, whatever order the boxes were ticked in.
      const created = await webhooksApi.create(
        url.trim(),
        WEBHOOK_EVENTS.filter((e) => events.includes(e)),
      );
      setUrl('');
      setEvents([]);
      onAdded(created.secret);
    } catch (failure) {
      const onUrl = failure instanceof ApiError && URL_CODES.includes(failure.code);
      setError({ text: serverMessage(failure) ?? 'Error adding the endpoint.', onUrl });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} noValidate aria-label="Add endpoint">
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        Add endpoint
      </Typography>
      <Stack spacing={2}>
        <TextField
          label="Endpoint URL"
          placeholder="https://example.com/botsmith-webhook"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={Boolean(error?.onUrl)}
          helperText={error?.onUrl ? error.text : undefined}
          slotProps={{ htmlInput: { maxLength: WEBHOOK_LIMITS.urlMaxChars } }}
          fullWidth
        />
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <FormLabel component="legend">Events</FormLabel>
          <FormGroup>
            {WEBHOOK_EVENTS.map((type) => (
              <FormControlLabel
                key={type}
                control={<Checkbox checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />}
                label={
                  <span>
                    {EVENT_LABELS[type]}{' '}
                    <Typography component="code" variant="caption">
                      {type}
                    </Typography>
                  </span>
                }
              />
            ))}
          </FormGroup>
        </Box>
        {error && !error.onUrl && <Alert severity="error">{error.text}</Alert>}
        <Box>
          <Button type="submit" variant="contained" disabled={saving || !url.trim() || events.length === 0}>
            {saving ? 'Adding…' : 'Add endpoint'}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

function EndpointItem({ endpoint, onChanged }: { endpoint: WebhookEndpoint; onChanged: () => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const [testing, setTesting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const [enabling, setEnabling] = useState(false);

  const enable = async () => {
    setEnabling(true);
    try {
      await webhooksApi.enable(endpoint.id);
      enqueueSnackbar('Endpoint enabled. Deliveries to it start again.', { variant: 'success' });
      onChanged();
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'Error enabling the endpoint.', { variant: 'error' });
    } finally {
      setEnabling(false);
    }
  };

  const sendTest = async () => {
    setTesting(true);
    try {
      const { delivery } = await webhooksApi.test(endpoint.id);
      if (delivery.status === 'delivered') {
        enqueueSnackbar(`Test event delivered (HTTP ${delivery.statusCode}).`, { variant: 'success' });
      } else {
        enqueueSnackbar(`Test event failed: ${delivery.lastError ?? 'no answer'}`, { variant: 'error' });
      }
      setLogVersion((v) => v + 1);
      onChanged();
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'Error sending the test event.', { variant: 'error' });
    } finally {
      setTesting(false);
    }
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await webhooksApi.remove(endpoint.id);
      enqueueSnackbar('Endpoint deleted.', { variant: 'success' });
      setConfirming(false);
      onChanged();
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'Error deleting the endpoint.', { variant: 'error' });
    } finally {
      setDeleting(false);
    }
  };

  const last = endpoint.lastDelivery;
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2 }} aria-label={endpoint.url}>
      <Typography sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{endpoint.url}</Typography>
      {endpoint.disabledAt ? (
        <Alert
          severity="error"
          sx={{ my: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void enable()} disabled={enabling}>
              {enabling ? 'Enabling…' : 'Enable'}
            </Button>
          }
        >
          Disabled on {when(endpoint.disabledAt)}: every delivery failed for {WEBHOOK_LIMITS.failingDaysBeforeDisable}{' '}
          days. Nothing is sent to it until you enable it again; the events since are kept and sent first.
        </Alert>
      ) : (
        endpoint.failingSince && (
          <Alert severity="warning" sx={{ my: 1 }}>
            Failing since {when(endpoint.failingSince)}. After {WEBHOOK_LIMITS.failingDaysBeforeDisable} days of
            failures it is disabled.
          </Alert>
        )
      )}
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', my: 1, rowGap: 1 }}>
        {endpoint.disabledAt && <Chip label="Disabled" color="error" size="small" />}
        {endpoint.events.map((type) => (
          <Chip key={type} label={type} size="small" />
        ))}
      </Stack>
      <Typography variant="body2" color="textSecondary">
        {last
          ? `Last delivery: ${STATUS_LABELS[last.status]}${last.statusCode ? ` (HTTP ${last.statusCode})` : ''}, ${when(last.createdAt)}`
          : 'No deliveries yet.'}
      </Typography>
      {/* On a phone the card is narrow: a button goes to the next row whole rather than breaking its label. */}
      <Stack
        direction="row"
        useFlexGap
        sx={{ mt: 1, flexWrap: 'wrap', gap: 1, '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
      >
        <Button size="small" onClick={() => void sendTest()} disabled={testing}>
          {testing ? 'Sending…' : 'Send test'}
        </Button>
        <Button size="small" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button size="small" color="error" onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </Stack>
      {showLog && <DeliveryLog endpointId={endpoint.id} version={logVersion} />}
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby={`delete-webhook-${endpoint.id}`}>
        <DialogTitle id={`delete-webhook-${endpoint.id}`}>Delete this endpoint?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {endpoint.url} will receive no more events, and its delivery log is deleted.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={() => void remove()} disabled={deleting}>
            {deleting ? 'Deleting…' : 'Delete endpoint'}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

function DeliveryLog({ endpointId, version }: { endpointId: number; version: number }) {
  const load = useCallback(() => webhooksApi.deliveries(endpointId).then((answer) => answer.deliveries), [endpointId]);
  const log = useApiResource(load);
  // `version` is bumped after a test send: the log is read again, quietly (the rows stay meanwhile).
  const [readFor, setReadFor] = useState(version);
  if (version !== readFor) {
    setReadFor(version);
    log.refresh();
  }
  const failed = log.status === 'error';
  const deliveries = log.status === 'ready' ? log.data : null;

  if (failed)
    return (
      <Alert severity="error" sx={{ mt: 2 }}>
        Error fetching the deliveries.
      </Alert>
    );
  if (deliveries === null) return <CircularProgress size={24} sx={{ mt: 2 }} aria-label="Loading deliveries" />;
  if (deliveries.length === 0) {
    return (
      <Typography variant="body2" sx={{ mt: 2 }}>
        Nothing sent to this endpoint yet.
      </Typography>
    );
  }
  return (
    <TableContainer sx={{ mt: 2 }}>
      <Table size="small" aria-label="Deliveries">
        <TableHead>
          <TableRow>
            <TableCell>Time</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>HTTP</TableCell>
            <TableCell>Attempts</TableCell>
            <TableCell>Next attempt</TableCell>
            <TableCell>Error</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.map((d) => (
            <TableRow key={d.id}>
              <TableCell>{when(d.createdAt)}</TableCell>
              <TableCell>
                <code>{d.type}</code>
              </TableCell>
              <TableCell>
                <Chip label={STATUS_LABELS[d.status]} color={STATUS_COLOURS[d.status]} size="small" />
              </TableCell>
              <TableCell>{d.statusCode ?? '—'}</TableCell>
              <TableCell>{d.attempts}</TableCell>
              <TableCell>{when(d.nextAttemptAt)}</TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{d.lastError ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
