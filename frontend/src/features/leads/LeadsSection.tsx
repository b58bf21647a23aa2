import type { LeadSummary, LeadsPage } from '@botsmith/contract';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { leadsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { MailLimitNotice } from '../../components/MailLimitNotice';
import { RetryAlert } from '../../components/RetryAlert';
import { useApiPages } from '../../hooks/useApiPages';
import { inboxLink } from '../conversations/inboxParams';
import { saveFile } from '../../lib/saveFile';
import { formatDateTime } from '../../format/dateTime';

/** Where the leads page lives; `?botId=` narrows it to one bot. */
export const LEADS_PATH = '/dashboard/leads';

export interface LeadsSectionProps {
  /** The owner's bots, for the bot filter; null while loading. */
  bots: BotResponse[] | null;
}

const appendLeads = (shown: LeadsPage, next: LeadsPage): LeadsPage => ({
  leads: [...shown.leads, ...next.leads],
  nextCursor: next.nextCursor,
});

function botIdOf(search: URLSearchParams): number | null {
  const text = search.get('botId');
  return text && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null;
}

const when = (iso: string) => formatDateTime(iso);

/**
 * The owner's leads (docs/product.md#leads-and-handoff): what visitors left through the widget's
 * form, newest first, with the bot filter, more on demand, the export, deletion and a link to
 * each lead's conversation in the inbox.
 */
export function LeadsSection({ bots }: LeadsSectionProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [searchParams, setSearchParams] = useSearchParams();
  const botId = botIdOf(searchParams);
  const loadPage = useCallback(
    (cursor: string | null, signal: AbortSignal) => leadsApi.list(botId, cursor, signal),
    [botId],
  );
  const list = useApiPages(loadPage, appendLeads);
  const { update, moreError } = list;
  useEffect(() => {
    if (moreError !== null) enqueueSnackbar('Error loading more leads.', { variant: 'error' });
  }, [moreError, enqueueSnackbar]);
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState<LeadSummary | null>(null);

  const exportFile = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await leadsApi.exportFile(botId);
      saveFile(blob, fileName ?? `leads_${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch {
      enqueueSnackbar('Error exporting leads.', { variant: 'error' });
    } finally {
      setExporting(false);
    }
  };

  const removed = useCallback(
    (id: number) => {
      setDeleting(null);
      update((shown) => ({ ...shown, leads: shown.leads.filter((lead) => lead.id !== id) }));
    },
    [update],
  );

  // A bot id from a link that is not (or no longer) the owner's shows as "All bots" rather than blank.
  const known = bots?.some((bot) => bot.id === botId) ?? false;

  return (
    <Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ alignItems: { sm: 'baseline' }, justifyContent: 'space-between', gap: 2, mb: 1 }}
      >
        <Typography variant="h3" component="h1">
          Leads
        </Typography>
      </Stack>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 3 }}>
        Contacts visitors left through your bots' contact form. Each one is also e-mailed to you; turn the form on or
        off in a bot's Leads tab.
      </Typography>
      <MailLimitNotice kept="leads" />

      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, mb: 2, alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label="Bot"
          value={botId !== null && known ? String(botId) : ''}
          onChange={(event) => setSearchParams(event.target.value ? { botId: event.target.value } : {})}
          sx={{ width: { xs: '100%', sm: 220 } }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          disabled={!bots}
        >
          <MenuItem value="">All bots</MenuItem>
          {bots?.map((bot) => (
            <MenuItem key={bot.id} value={String(bot.id)}>
              {bot.name}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={() => void exportFile()}
          loading={exporting}
          disabled={list.status !== 'ready' || list.data.leads.length === 0}
        >
          Export
        </Button>
      </Stack>

      {list.status === 'loading' && (
        <Stack spacing={1} aria-busy="true" aria-label="Loading leads">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {list.status === 'error' && <RetryAlert onRetry={list.reload}>Error fetching leads.</RetryAlert>}
      {list.status === 'ready' && list.data.leads.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography variant="h6" component="p">
            No leads yet
          </Typography>
          <Typography variant="body2" color="textSecondary">
            When a visitor leaves their contact through a bot's form, it shows here.
          </Typography>
        </Paper>
      )}
      {list.status === 'ready' && list.data.leads.length > 0 && (
        <>
          <LeadsList leads={list.data.leads} onDelete={setDeleting} />
          {list.hasMore && (
            <Box sx={{ mt: 2, textAlign: 'center' }}>
              <Button onClick={list.showMore} loading={list.loadingMore}>
                Load more
              </Button>
            </Box>
          )}
        </>
      )}

      <ConfirmDeleteDialog
        target={deleting}
        title="Delete this lead?"
        text="The contact is removed for good; the conversation stays in the inbox. This cannot be undone."
        deletedMessage="Lead deleted."
        failedMessage="The lead could not be deleted. Please try again."
        remove={(lead) => leadsApi.remove(lead.id)}
        onClose={() => setDeleting(null)}
        onDeleted={(lead) => removed(lead.id)}
      />
    </Box>
  );
}

interface LeadsListProps {
  leads: LeadSummary[];
  onDelete: (lead: LeadSummary) => void;
}

/**
 * A table on a wide screen; on a phone one card per lead, since a table of six columns shows only
 * the first three at 390 px and hides the contact, the one thing an owner came for.
 */
function LeadsList({ leads, onDelete }: LeadsListProps) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  if (phone) {
    return (
      <Stack component="ul" aria-label="Leads" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {leads.map((lead) => (
          <Paper component="li" key={lead.id} variant="outlined" sx={{ p: 2 }}>
            <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1 }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{lead.name ?? '—'}</Typography>
                <Typography variant="body2" color="textSecondary">
                  {lead.botName} · {when(lead.createdAt)}
                </Typography>
              </Box>
              <LeadActions lead={lead} onDelete={onDelete} />
            </Stack>
            <Box sx={{ mt: 1, overflowWrap: 'anywhere' }}>
              <LeadContact lead={lead} />
            </Box>
            {lead.message && (
              <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {lead.message}
              </Typography>
            )}
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Leads">
        <TableHead>
          <TableRow>
            <TableCell>Received</TableCell>
            <TableCell>Bot</TableCell>
            <TableCell>Name</TableCell>
            <TableCell>Contact</TableCell>
            <TableCell>Message</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {leads.map((lead) => (
            <TableRow key={lead.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(lead.createdAt)}</TableCell>
              <TableCell>{lead.botName}</TableCell>
              <TableCell>{lead.name ?? '—'}</TableCell>
              <TableCell>
                <LeadContact lead={lead} />
              </TableCell>
              <TableCell sx={{ maxWidth: 360, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {lead.message ?? '—'}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <LeadActions lead={lead} onDelete={onDelete} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function LeadContact({ lead }: { lead: LeadSummary }) {
  return (
    <>
      {lead.email && (
        <Box>
          <a href={`mailto:${lead.email}`}>{lead.email}</a>
        </Box>
      )}
      {lead.phone && (
        <Box>
          <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`}>{lead.phone}</a>
        </Box>
      )}
    </>
  );
}

function LeadActions({ lead, onDelete }: { lead: LeadSummary; onDelete: (lead: LeadSummary) => void }) {
  const who = lead.name ?? lead.email ?? lead.phone ?? 'a visitor';
  return (
    <Box sx={{ display: 'flex', flexShrink: 0, justifyContent: 'flex-end' }}>
      <Tooltip title="Open the conversation">
        <IconButton
          component={RouterLink}
          to={inboxLink({ conversationId: lead.conversationId })}
          aria-label={`Open the conversation of the lead from ${who}`}
        >
          <ForumOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Delete">
        <IconButton onClick={() => onDelete(lead)} aria-label={`Delete the lead from ${who}`}>
          <DeleteOutlineRounded fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
