import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACTION_LIMITS,
  ACTION_METHODS,
  ACTION_SECRET_MASK,
  ACTION_STATS_DAYS,
  ACTION_TEMPLATES,
  ACTION_VISITOR_MATCH_FIELDS,
  type ActionMethod,
  type ActionRunResult,
  type ActionStats,
  type ActionTemplate,
  type ActionVisitorMatch,
  type ActionVisitorMatchField,
  type BotAction,
  type SaveActionRequest,
} from '@botsmith/contract';
import { useCallback, useState, type FormEvent } from 'react';
import { actionsApi } from '../../api/actions';
import { serverMessage } from '../../api/serverMessage';
import { useApiResource } from '../../hooks/useApiResource';
import { SubmitButton } from '../../components/SubmitButton';

export interface ActionsTabProps {
  botId: number;
}

/** The form's text fields; turned into a SaveActionRequest on save. */
interface ActionDraft {
  name: string;
  description: string;
  method: ActionMethod;
  url: string;
  parameters: string;
  /** One `Name: value` a line; `Name: ••••` keeps the stored value. */
  headers: string;
  visitorFields: string;
  requiresVerifiedVisitor: boolean;
  timeoutMs: string;
  /** One JSON pointer a line. */
  answerFields: string;
  /** The owner check's pointer; empty: no check. */
  matchPointer: string;
  matchField: ActionVisitorMatchField;
}

const MATCH_FIELD_LABELS: Record<ActionVisitorMatchField, string> = {
  email: "The visitor's e-mail",
  sub: "The visitor's id (sub)",
};

function matchOf(
  visitorMatch: ActionVisitorMatch | null | undefined,
): Pick<ActionDraft, 'matchPointer' | 'matchField'> {
  return { matchPointer: visitorMatch?.pointer ?? '', matchField: visitorMatch?.field ?? 'email' };
}

const EMPTY: ActionDraft = {
  name: '',
  description: '',
  method: 'GET',
  url: 'https://',
  parameters: JSON.stringify(
    { type: 'object', properties: { order_id: { type: 'string', maxLength: 20 } }, required: ['order_id'] },
    null,
    2,
  ),
  headers: '',
  visitorFields: 'sub, email',
  requiresVerifiedVisitor: true,
  timeoutMs: String(ACTION_LIMITS.timeoutMsDefault),
  answerFields: '/status',
  ...matchOf(null),
};

function draftOf(action: BotAction): ActionDraft {
  return {
    name: action.name,
    description: action.description,
    method: action.method,
    url: action.url,
    parameters: JSON.stringify(action.parameters, null, 2),
    headers: action.headers.map((header) => `${header.name}: ${header.value}`).join('\n'),
    visitorFields: action.visitorFields.join(', '),
    requiresVerifiedVisitor: action.requiresVerifiedVisitor,
    timeoutMs: String(action.timeoutMs),
    answerFields: action.answerFields.join('\n'),
    ...matchOf(action.visitorMatch),
  };
}

/** A template's action as the form's text (its headers named, their values left for the owner). */
export function draftOfTemplate(template: ActionTemplate): ActionDraft {
  const { action } = template;
  return {
    name: action.name,
    description: action.description,
    method: action.method,
    url: action.url,
    parameters: JSON.stringify(action.parameters, null, 2),
    headers: action.headers.map((header) => `${header.name}: ${header.value}`).join('\n'),
    visitorFields: (action.visitorFields ?? []).join(', '),
    requiresVerifiedVisitor: action.requiresVerifiedVisitor ?? true,
    timeoutMs: String(action.timeoutMs ?? ACTION_LIMITS.timeoutMsDefault),
    answerFields: action.answerFields.join('\n'),
    ...matchOf(action.visitorMatch),
  };
}

/**
 * A `{…}` left in the URL's address (a template's `{your-shop}`), else null: the API would only
 * say it "names no parameter", so the form says what to do instead.
 */
export function addressPlaceholder(url: string): string | null {
  const afterScheme = url.replace(/^[a-z]+:\/\//i, '');
  const address = afterScheme.split(/[/?#]/)[0];
  return /\{[^{}]*\}/.exec(address)?.[0] ?? null;
}

/** An authorization scheme with no credentials after it ("Basic", "Bearer"): the key was not pasted. */
const BARE_SCHEME = /^(basic|bearer|token)$/i;

/** The request, or the sentence saying which field cannot be read. */
function requestOf(draft: ActionDraft): SaveActionRequest | string {
  const placeholder = addressPlaceholder(draft.url.trim());
  if (placeholder) {
    return `Replace ${placeholder} in the URL with your own address (the URL must be a real https:// address).`;
  }
  let parameters: SaveActionRequest['parameters'];
  try {
    parameters = JSON.parse(draft.parameters) as SaveActionRequest['parameters'];
  } catch {
    return 'The parameters must be a JSON Schema (JSON text).';
  }
  const headers: NonNullable<SaveActionRequest['headers']> = [];
  for (const line of draft.headers.split('\n').filter((l) => l.trim())) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `Write each header as "Name: value" (line "${line.slice(0, 40)}").`;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (BARE_SCHEME.test(value)) return `Paste your key after "${name}: ${value}".`;
    // The mask (or nothing) keeps the stored value.
    headers.push(value === '' || value === ACTION_SECRET_MASK ? { name } : { name, value });
  }
  const timeoutMs = Number(draft.timeoutMs);
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    method: draft.method,
    url: draft.url.trim(),
    parameters,
    headers,
    visitorFields: draft.visitorFields
      .split(',')
      .map((field) => field.trim())
      .filter(Boolean),
    requiresVerifiedVisitor: draft.requiresVerifiedVisitor,
    timeoutMs: Number.isFinite(timeoutMs) ? timeoutMs : ACTION_LIMITS.timeoutMsDefault,
    answerFields: draft.answerFields
      .split('\n')
      .map((pointer) => pointer.trim())
      .filter(Boolean),
    visitorMatch: draft.matchPointer.trim() ? { pointer: draft.matchPointer.trim(), field: draft.matchField } : null,
  };
}

/**
 * The bot's Actions tab (docs/product.md#actions): its HTTP actions, a form to add or edit one
 * (header values are never shown: "••••" keeps the stored one), deleting one, and a test run that
 * shows the request made, the status, the time and the filtered answer.
 */
export function ActionsTab({ botId }: ActionsTabProps) {
  const load = useCallback((signal: AbortSignal) => actionsApi.list(botId, signal).then((a) => a.actions), [botId]);
  const list = useApiResource(load);
  const loadStats = useCallback((signal: AbortSignal) => actionsApi.stats(botId, signal), [botId]);
  // The counters are extra: when they cannot be read the actions still show, without them.
  const stats = useApiResource(loadStats);
  const statsOf = (id: number): ActionStats | null =>
    stats.status === 'ready' ? (stats.data.stats.find((entry) => entry.actionId === id) ?? null) : null;
  /** null: no form; 'new': adding; an id: editing that action. */
  const [editing, setEditing] = useState<'new' | number | null>(null);

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
        Error fetching the bot&apos;s actions.
      </Alert>
    );
  }
  if (list.status === 'loading') {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label="Loading actions" />
      </Box>
    );
  }
  const actions = list.data;
  const saved = () => {
    setEditing(null);
    list.refresh();
    stats.refresh();
  };
  return (
    <Stack spacing={3}>
      <Typography variant="body2" color="textSecondary">
        Actions let the bot call your API for a visitor, for example to look up an order. Header values are stored
        encrypted and never shown again.
      </Typography>
      {actions.length === 0 ? (
        <Typography>No actions yet.</Typography>
      ) : (
        <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Actions">
          {actions.map((action) =>
            editing === action.id ? (
              <ActionForm
                key={action.id}
                botId={botId}
                action={action}
                onSaved={saved}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <ActionItem
                key={action.id}
                botId={botId}
                action={action}
                stats={statsOf(action.id)}
                onEdit={() => setEditing(action.id)}
                onDeleted={list.refresh}
              />
            ),
          )}
        </Stack>
      )}
      {editing === 'new' ? (
        <ActionForm botId={botId} action={null} onSaved={saved} onCancel={() => setEditing(null)} />
      ) : actions.length < ACTION_LIMITS.perBot ? (
        <Box>
          <Button variant="outlined" onClick={() => setEditing('new')}>
            Add action
          </Button>
        </Box>
      ) : (
        <Alert severity="info">This bot has {ACTION_LIMITS.perBot} actions, the most allowed.</Alert>
      )}
    </Stack>
  );
}

/** "12 calls · 1 failed · p95 184 ms in the last 30 days". */
export function statsLine(stats: ActionStats): string {
  if (stats.calls === 0) return `No calls in the last ${ACTION_STATS_DAYS} days`;
  const calls = stats.calls === 1 ? '1 call' : `${stats.calls.toLocaleString('en-US')} calls`;
  const failed = `${stats.failures.toLocaleString('en-US')} failed`;
  const p95 = stats.p95Ms === null ? '' : ` · p95 ${stats.p95Ms.toLocaleString('en-US')} ms`;
  return `${calls} · ${failed}${p95} in the last ${ACTION_STATS_DAYS} days`;
}

function ActionItem({
  botId,
  action,
  stats,
  onEdit,
  onDeleted,
}: {
  botId: number;
  action: BotAction;
  stats: ActionStats | null;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setError(null);
    try {
      await actionsApi.remove(botId, action.id);
      onDeleted();
    } catch (caught) {
      setError(serverMessage(caught) ?? 'Could not delete the action. Please try again.');
    }
  };
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2 }} aria-label={action.name}>
      <Stack spacing={1}>
        <Typography sx={{ fontWeight: 600 }}>{action.name}</Typography>
        <Typography variant="body2">{action.description}</Typography>
        <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {action.method} {action.url}
        </Typography>
        {stats && (
          <Typography
            variant="body2"
            aria-label="Calls"
            color={stats.failures > 0 ? 'error' : 'textSecondary'}
            sx={{ fontVariantNumeric: 'tabular-nums' }}
          >
            {statsLine(stats)}
          </Typography>
        )}
        {error && <Alert severity="error">{error}</Alert>}
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={onEdit}>
            Edit
          </Button>
          <Button size="small" onClick={() => setTesting((open) => !open)}>
            Test
          </Button>
          <Button size="small" color="error" onClick={() => void remove()}>
            Delete
          </Button>
        </Stack>
        {testing && <TestPanel botId={botId} action={action} />}
      </Stack>
    </Paper>
  );
}

function TestPanel({ botId, action }: { botId: number; action: BotAction }) {
  const [parameters, setParameters] = useState('{}');
  const [sub, setSub] = useState('');
  const [email, setEmail] = useState('');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ActionRunResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setResult(null);
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(parameters) as Record<string, unknown>;
    } catch {
      setError('The parameters must be JSON, like {"order_id": "1042"}.');
      return;
    }
    setRunning(true);
    try {
      const visitor = { ...(sub.trim() ? { sub: sub.trim() } : {}), ...(email.trim() ? { email: email.trim() } : {}) };
      setResult((await actionsApi.test(botId, action.id, { parameters: parsed, visitor })).result);
    } catch (caught) {
      setError(serverMessage(caught) ?? 'Could not run the test. Please try again.');
    } finally {
      setRunning(false);
    }
  };
  return (
    <Box component="form" onSubmit={(event) => void run(event)} aria-label={`Test ${action.name}`}>
      <Stack spacing={2}>
        <TextField
          label="Test parameters (JSON)"
          value={parameters}
          onChange={(event) => setParameters(event.target.value)}
          multiline
          size="small"
        />
        <Stack direction="row" spacing={2}>
          <TextField
            label="Visitor id (sub)"
            value={sub}
            onChange={(event) => setSub(event.target.value)}
            size="small"
          />
          <TextField
            label="Visitor e-mail"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            size="small"
          />
        </Stack>
        <Box>
          <Button type="submit" variant="contained" size="small" disabled={running}>
            {running ? 'Running…' : 'Run test'}
          </Button>
        </Box>
        {error && <Alert severity="error">{error}</Alert>}
        {result && <TestResult result={result} />}
      </Stack>
    </Box>
  );
}

function TestResult({ result }: { result: ActionRunResult }) {
  return (
    <Stack spacing={1} aria-label="Test result">
      <Typography variant="body2">
        {result.status === null ? 'No answer' : `HTTP ${result.status}`} in {result.durationMs} ms
      </Typography>
      {result.request && (
        <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {result.request.method} {result.request.url}
        </Typography>
      )}
      {result.error ? (
        <Alert severity="warning">{result.error}</Alert>
      ) : (
        <Box component="pre" sx={{ m: 0, p: 1, bgcolor: 'action.hover', overflowX: 'auto', fontSize: 13 }}>
          {result.answer}
        </Box>
      )}
      {result.truncated && (
        <Typography variant="caption">The answer was cut to {ACTION_LIMITS.answerMaxBytes / 1024} KB.</Typography>
      )}
    </Stack>
  );
}

function ActionForm({
  botId,
  action,
  onSaved,
  onCancel,
}: {
  botId: number;
  action: BotAction | null;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<ActionDraft>(action ? draftOf(action) : EMPTY);
  const [template, setTemplate] = useState<ActionTemplate | null>(null);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set =
    <K extends keyof ActionDraft>(key: K) =>
    (value: ActionDraft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const request = requestOf(draft);
    if (typeof request === 'string') {
      setError(request);
      return;
    }
    setSaving(true);
    try {
      if (action) await actionsApi.update(botId, action.id, request);
      else await actionsApi.create(botId, request);
      onSaved();
    } catch (caught) {
      setError(serverMessage(caught) ?? 'Could not save the action. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Paper
      component="form"
      variant="outlined"
      sx={{ p: 2 }}
      onSubmit={(event: FormEvent) => void submit(event)}
      aria-label={action ? `Edit ${action.name}` : 'New action'}
    >
      <Stack spacing={2}>
        {!action && (
          <Box>
            <Button
              variant="outlined"
              size="small"
              id="action-template-button"
              aria-haspopup="menu"
              aria-expanded={menuAnchor !== null}
              aria-controls={menuAnchor ? 'action-template-menu' : undefined}
              onClick={(event) => setMenuAnchor(event.currentTarget)}
            >
              Start from a template
            </Button>
            <Menu
              id="action-template-menu"
              anchorEl={menuAnchor}
              open={menuAnchor !== null}
              onClose={() => setMenuAnchor(null)}
              slotProps={{ list: { 'aria-labelledby': 'action-template-button' } }}
            >
              {ACTION_TEMPLATES.map((entry) => (
                <MenuItem
                  key={entry.id}
                  onClick={() => {
                    setMenuAnchor(null);
                    setTemplate(entry);
                    setDraft(draftOfTemplate(entry));
                    setError(null);
                  }}
                >
                  {entry.label}
                </MenuItem>
              ))}
            </Menu>
          </Box>
        )}
        {template && (
          <Alert severity="info" aria-label="Template">
            <strong>{template.label}.</strong> {template.hint}
          </Alert>
        )}
        <TextField
          label="Name"
          value={draft.name}
          onChange={(event) => set('name')(event.target.value)}
          helperText="snake_case, e.g. order_status"
          size="small"
          required
        />
        <TextField
          label="Description"
          value={draft.description}
          onChange={(event) => set('description')(event.target.value)}
          helperText="What it does, for the model: Look up the status of an order by its number"
          size="small"
          required
        />
        <Stack direction="row" spacing={2}>
          <TextField
            select
            label="Method"
            value={draft.method}
            onChange={(event) => set('method')(event.target.value as ActionMethod)}
            size="small"
            sx={{ minWidth: 110 }}
          >
            {ACTION_METHODS.map((method) => (
              <MenuItem key={method} value={method}>
                {method}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="URL"
            value={draft.url}
            onChange={(event) => set('url')(event.target.value)}
            helperText={
              addressPlaceholder(draft.url)
                ? `Replace ${addressPlaceholder(draft.url)} with your own address`
                : 'https://shop.example/api/orders/{order_id}'
            }
            error={addressPlaceholder(draft.url) !== null}
            size="small"
            fullWidth
            required
            // The example address is one long word: it wraps instead of running past a phone's edge.
            slotProps={{ formHelperText: { sx: { overflowWrap: 'anywhere' } } }}
          />
        </Stack>
        <TextField
          label="Parameters (JSON Schema)"
          value={draft.parameters}
          onChange={(event) => set('parameters')(event.target.value)}
          multiline
          minRows={3}
          size="small"
        />
        <TextField
          label="Headers"
          value={draft.headers}
          onChange={(event) => set('headers')(event.target.value)}
          helperText={`One "Name: value" a line. Values are secret: ${ACTION_SECRET_MASK} keeps the stored value.`}
          multiline
          size="small"
        />
        <TextField
          label="Visitor fields sent"
          value={draft.visitorFields}
          onChange={(event) => set('visitorFields')(event.target.value)}
          helperText="sub, email or attribute names, separated by commas"
          size="small"
        />
        <TextField
          label="Answer fields"
          value={draft.answerFields}
          onChange={(event) => set('answerFields')(event.target.value)}
          helperText="JSON pointers, one a line (/order/status); only these reach the model"
          multiline
          size="small"
        />
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <TextField
            label="Timeout (ms)"
            type="number"
            value={draft.timeoutMs}
            onChange={(event) => set('timeoutMs')(event.target.value)}
            size="small"
            slotProps={{ htmlInput: { min: ACTION_LIMITS.timeoutMsMin, max: ACTION_LIMITS.timeoutMsMax } }}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={draft.requiresVerifiedVisitor}
                onChange={(event) => set('requiresVerifiedVisitor')(event.target.checked)}
              />
            }
            label="Only for verified visitors"
          />
        </Stack>
        <Stack spacing={1} component="section" aria-labelledby="action-visitor-match-title">
          <Typography id="action-visitor-match-title" variant="subtitle2">
            Answer must belong to the visitor
          </Typography>
          <Typography variant="body2" color="textSecondary">
            For APIs that answer anyone's record by its number (Shopify, WooCommerce): name where the answer holds its
            owner, and the bot uses the answer only when it is the signed-in visitor&apos;s. Leave empty for no check.
          </Typography>
          <Stack direction="row" spacing={2}>
            <TextField
              label="Owner in the answer (JSON pointer)"
              value={draft.matchPointer}
              onChange={(event) => set('matchPointer')(event.target.value)}
              helperText={
                draft.matchPointer.trim() && !draft.requiresVerifiedVisitor
                  ? 'Needs "Only for verified visitors"'
                  : 'e.g. /billing/email; for anyone else the bot finds nothing'
              }
              error={draft.matchPointer.trim() !== '' && !draft.requiresVerifiedVisitor}
              size="small"
              fullWidth
            />
            <TextField
              select
              label="Must equal"
              value={draft.matchField}
              onChange={(event) => set('matchField')(event.target.value as ActionVisitorMatchField)}
              size="small"
              sx={{ minWidth: 220 }}
            >
              {ACTION_VISITOR_MATCH_FIELDS.map((field) => (
                <MenuItem key={field} value={field}>
                  {MATCH_FIELD_LABELS[field]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
        <Stack direction="row" spacing={1}>
          <SubmitButton label={action ? 'Save action' : 'Add action'} saving={saving} />
          <Button onClick={onCancel}>Cancel</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
