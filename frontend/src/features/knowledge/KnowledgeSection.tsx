import AddRounded from '@mui/icons-material/AddRounded';
import AutoStoriesOutlined from '@mui/icons-material/AutoStoriesOutlined';
import KeyboardArrowDownRounded from '@mui/icons-material/KeyboardArrowDownRounded';
import LanguageRounded from '@mui/icons-material/LanguageRounded';
import NotesRounded from '@mui/icons-material/NotesRounded';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import UploadFileRounded from '@mui/icons-material/UploadFileRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { knowledgeApi } from '../../api';
import type { DocumentResponse, SourceResponse, RefreshSchedule } from '../../api/types';
import { RetryAlert } from '../../components/RetryAlert';
import { serverMessage } from '../../api/serverMessage';
import { AddFileDialog } from './AddFileDialog';
import { AddTextDialog } from './AddTextDialog';
import { AddWebsiteDialog } from './AddWebsiteDialog';
import { EditWrittenDialog } from './EditWrittenDialog';
import { ReferenceDocumentDialog } from './ReferenceDocumentDialog';
import { SourcePages } from './SourcePages';
import { SourceRow } from './SourceRow';
import { useKnowledgeSources } from './useKnowledgeSources';

export interface KnowledgeSectionProps {
  botId: number;
  /** Called after a source was deleted (it may have been the bot's reference document). */
  onDeleted?: () => void;
  /** A value that changes when the sources changed elsewhere (a new reference document): the list is read again. */
  revision?: string | number | null;
  /**
   * The reference document (docs/product.md#edit-bot-modal), as one of the sources: with it, "Add" offers "Reference
   * document" (a PDF that replaces the current one).
   */
  reference?: { document: DocumentResponse | null; onUploaded: (document: DocumentResponse) => void };
}

type Adding = 'file' | 'website' | 'text' | 'reference' | null;

type Group = 'file' | 'website' | 'text' | 'correction';
const GROUPS: Array<{ group: Group; title: string }> = [
  { group: 'file', title: 'Files' },
  { group: 'website', title: 'Websites' },
  { group: 'text', title: 'Written answers' },
  { group: 'correction', title: 'Corrections' },
];
const groupOf = (source: SourceResponse): Group => (source.correction ? 'correction' : source.kind);

/** The sources by kind (the reference document first among the files), each kind under its heading. */
function grouped(sources: SourceResponse[]): Array<{ group: Group; title: string; sources: SourceResponse[] }> {
  return GROUPS.map(({ group, title }) => ({
    group,
    title,
    sources: sources
      .filter((source) => groupOf(source) === group)
      .sort((a, b) => Number(b.reference) - Number(a.reference)),
  })).filter((entry) => entry.sources.length > 0);
}

/**
 * Everything the bot answers from: its files, websites and written answers, each with its state,
 * read again every two seconds while one is processing (docs/product.md#knowledge-sources).
 */
export function KnowledgeSection({ botId, onDeleted, revision, reference }: KnowledgeSectionProps) {
  const { enqueueSnackbar } = useSnackbar();
  const { state, reload, replace } = useKnowledgeSources(botId, revision);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [adding, setAdding] = useState<Adding>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  // Kept after the confirmation closes, so its title does not change while it fades out.
  const [deleting, setDeleting] = useState<SourceResponse | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState<SourceResponse | null>(null);
  const [openPages, setOpenPages] = useState<ReadonlySet<number>>(new Set());
  const togglePages = (source: SourceResponse) =>
    setOpenPages((current) => {
      const next = new Set(current);
      if (!next.delete(source.id)) next.add(source.id);
      return next;
    });
  const askDelete = (source: SourceResponse) => {
    setDeleting(source);
    setConfirming(true);
  };

  const choose = (kind: Exclude<Adding, null>) => {
    setMenuAnchor(null);
    setAdding(kind);
  };
  const added = (name: string) => {
    enqueueSnackbar(`“${name}” added.`, { variant: 'success' });
    reload();
  };

  const refresh = async (source: SourceResponse) => {
    setBusyId(source.id);
    try {
      await knowledgeApi.refresh(botId, source.id);
      enqueueSnackbar(`Reading “${source.name}” again.`, { variant: 'info' });
      reload();
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'The source could not be read again.', { variant: 'error' });
    } finally {
      setBusyId(null);
    }
  };

  const schedule = async (source: SourceResponse, refreshSchedule: RefreshSchedule) => {
    setBusyId(source.id);
    try {
      const { source: changed } = await knowledgeApi.setSchedule(botId, source.id, refreshSchedule);
      replace(changed);
      enqueueSnackbar(
        refreshSchedule === 'off'
          ? `“${source.name}” is no longer read again by itself.`
          : `“${source.name}” is read again ${refreshSchedule === 'daily' ? 'every day' : 'every week'}.`,
        { variant: 'success' },
      );
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'How often the website is read again could not be changed.', {
        variant: 'error',
      });
    } finally {
      setBusyId(null);
    }
  };

  const confirmDelete = async () => {
    const source = deleting;
    if (!source) return;
    setConfirming(false);
    setBusyId(source.id);
    try {
      await knowledgeApi.remove(botId, source.id);
      enqueueSnackbar(`“${source.name}” deleted.`, { variant: 'success' });
      reload();
      onDeleted?.();
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'The source could not be deleted.', { variant: 'error' });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Box component="section" aria-labelledby="knowledge-title">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', mb: 2 }}>
        <Box sx={{ flex: 1 }}>
          <Typography id="knowledge-title" variant="h6" component="h3" sx={{ mb: 0.5 }}>
            Knowledge
          </Typography>
          <Typography variant="body2" color="textSecondary">
            What the bot answers from: your files, your website, written answers and corrections. Answers cite the
            source they come from.
          </Typography>
        </Box>
        <Button
          variant="contained"
          startIcon={<AddRounded />}
          endIcon={<KeyboardArrowDownRounded />}
          aria-haspopup="menu"
          aria-expanded={menuAnchor ? 'true' : undefined}
          aria-controls={menuAnchor ? 'knowledge-add-menu' : undefined}
          onClick={(event) => setMenuAnchor(event.currentTarget)}
          sx={{ flex: 'none' }}
        >
          Add
        </Button>
        <Menu
          id="knowledge-add-menu"
          anchorEl={menuAnchor}
          open={Boolean(menuAnchor)}
          onClose={() => setMenuAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <MenuItem onClick={() => choose('file')}>
            <ListItemIcon>
              <UploadFileRounded fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Files" secondary="PDF, DOCX, TXT, Markdown, HTML, CSV" />
          </MenuItem>
          <MenuItem onClick={() => choose('website')}>
            <ListItemIcon>
              <LanguageRounded fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Website" secondary="Crawl up to 500 pages" />
          </MenuItem>
          <MenuItem onClick={() => choose('text')}>
            <ListItemIcon>
              <NotesRounded fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Written answer" secondary="A question you answer yourself" />
          </MenuItem>
          {reference && (
            <MenuItem onClick={() => choose('reference')}>
              <ListItemIcon>
                <PictureAsPdfOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText
                primary="Reference document"
                secondary={reference.document ? 'Replace the PDF the bot relies on' : 'One PDF the bot relies on'}
              />
            </MenuItem>
          )}
        </Menu>
      </Stack>

      {state.status === 'loading' && (
        <Paper variant="outlined" aria-busy="true" aria-label="Loading knowledge sources">
          {[0, 1].map((row) => (
            <Stack key={row} direction="row" spacing={1.5} sx={{ alignItems: 'center', px: 2, py: 1.5 }}>
              <Skeleton variant="rounded" width={36} height={36} />
              <Box sx={{ flex: 1 }}>
                <Skeleton width="40%" />
                <Skeleton width="25%" />
              </Box>
            </Stack>
          ))}
        </Paper>
      )}
      {state.status === 'error' && <RetryAlert onRetry={reload}>{state.message}</RetryAlert>}
      {state.status === 'ready' && state.sources.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center', borderStyle: 'dashed' }}>
          <AutoStoriesOutlined color="primary" sx={{ fontSize: 40, mb: 1 }} aria-hidden />
          <Typography sx={{ fontWeight: 600 }}>No knowledge yet</Typography>
          <Typography variant="body2" color="textSecondary" sx={{ maxWidth: 420, mx: 'auto' }}>
            Add files, your website or written answers, and the bot will answer from them.
          </Typography>
        </Paper>
      )}
      {state.status === 'ready' && state.sources.length > 0 && (
        <>
          {state.stale && (
            <Alert severity="warning" sx={{ mb: 1.5 }}>
              The list could not be refreshed; it may be out of date.
            </Alert>
          )}
          <Paper
            variant="outlined"
            component="ul"
            aria-label="Knowledge sources"
            sx={{ m: 0, p: 0, overflow: 'hidden' }}
          >
            {grouped(state.sources).map(({ group, title, sources }) => [
              <Box
                key={`heading-${group}`}
                component="li"
                role="presentation"
                sx={{
                  listStyle: 'none',
                  px: 2,
                  pt: 1.25,
                  pb: 0.5,
                  bgcolor: 'action.hover',
                  borderTop: 1,
                  borderColor: 'divider',
                  '&:first-of-type': { borderTop: 0 },
                }}
              >
                <Typography variant="overline" color="textSecondary" component="h4" sx={{ lineHeight: 1.6 }}>
                  {title} · {sources.length}
                </Typography>
              </Box>,
              ...sources.map((source) => (
                <SourceRow
                  key={source.id}
                  source={source}
                  busy={busyId === source.id}
                  onRefresh={(chosen) => void refresh(chosen)}
                  onSchedule={(chosen, refreshSchedule) => void schedule(chosen, refreshSchedule)}
                  onDelete={askDelete}
                  onEdit={setEditing}
                  pagesOpen={openPages.has(source.id)}
                  onTogglePages={togglePages}
                >
                  {source.kind === 'website' && openPages.has(source.id) && (
                    <SourcePages botId={botId} sourceId={source.id} name={source.name} />
                  )}
                </SourceRow>
              )),
            ])}
          </Paper>
        </>
      )}

      <AddFileDialog botId={botId} open={adding === 'file'} onClose={() => setAdding(null)} onAdded={added} />
      <AddWebsiteDialog botId={botId} open={adding === 'website'} onClose={() => setAdding(null)} onAdded={added} />
      <AddTextDialog botId={botId} open={adding === 'text'} onClose={() => setAdding(null)} onAdded={added} />
      {reference && (
        <ReferenceDocumentDialog
          botId={botId}
          open={adding === 'reference'}
          document={reference.document}
          onClose={() => setAdding(null)}
          onUploaded={(document) => {
            reference.onUploaded(document);
            reload();
          }}
        />
      )}
      <EditWrittenDialog
        botId={botId}
        source={editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          replace(saved);
          setEditing(null);
          enqueueSnackbar(`“${saved.name}” saved.`, { variant: 'success' });
        }}
      />

      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="delete-source-title">
        <DialogTitle id="delete-source-title">Delete “{deleting?.name}”?</DialogTitle>
        <DialogContent>
          <DialogContentText>The bot stops answering from it at once. This cannot be undone.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={() => void confirmDelete()}>
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
