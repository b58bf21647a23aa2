import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContentText from '@mui/material/DialogContentText';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { botsApi } from '../../api';
import type { BotResponse, CategoryResponse, WidgetPosition } from '../../api/types';
import { useApiResource } from '../../hooks/useApiResource';
import { RetryAlert } from '../../components/RetryAlert';
import { BotUsageTab } from '../usage/BotUsageTab';
import { ActionsTab } from './ActionsTab';
import { DeleteBotTab } from './DeleteBotTab';
import { DeployTab } from './DeployTab';
import { DetailsTab } from './DetailsTab';
import { LeadsTab } from './LeadsTab';
import { PromptingTab } from './PromptingTab';
import { KnowledgeTab } from '../knowledge/KnowledgeTab';
import { StylingTab } from './StylingTab';
import { DraftProvider, useDraftStore } from './tabDrafts';

export type EditBotTab =
  'details' | 'styling' | 'prompting' | 'knowledge' | 'usage' | 'deploy' | 'leads' | 'actions' | 'delete';

const TABS: Array<{ value: EditBotTab; label: string }> = [
  { value: 'details', label: 'Details' },
  { value: 'styling', label: 'Styling' },
  { value: 'prompting', label: 'Prompting' },
  { value: 'knowledge', label: 'Knowledge' },
  { value: 'usage', label: 'Usage' },
  { value: 'deploy', label: 'Deploy' },
  { value: 'leads', label: 'Leads' },
  { value: 'actions', label: 'Actions' },
  { value: 'delete', label: 'Delete' },
];

/** "Details", "Details and Styling", "Details, Styling and Leads". */
function listOf(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
}

/** Room kept beside the modal for the live preview (the widget window is 350 px wide). */
const PREVIEW_ROOM = 400;

export interface EditBotDialogProps {
  /** The bot to edit; null closes the modal. */
  botId: number | null;
  categories: CategoryResponse[];
  onClose: () => void;
  /** A tab saved the bot (name, category... may have changed). */
  onBotChanged: (bot: BotResponse) => void;
  onBotDeleted: (botId: number) => void;
  /** The owner's account address, where leads go by default (the Leads tab shows it). */
  ownerEmail?: string;
  /** The tab to open on (the dashboard's Next steps); absent: the tab stays as it was. */
  initialTab?: EditBotTab;
}

/** The edit-bot modal: Details, Styling, Prompting, Knowledge, Usage, Deploy, Leads and Delete. */
export function EditBotDialog({
  botId,
  categories,
  onClose,
  onBotChanged,
  onBotDeleted,
  ownerEmail,
  initialTab,
}: EditBotDialogProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<EditBotTab>('details');
  const loadBot = useMemo(() => (botId === null ? null : () => botsApi.get(botId).then(({ bot }) => bot)), [botId]);
  const loaded = useApiResource(loadBot);
  const [previewSide, setPreviewSide] = useState<WidgetPosition | null>(null);
  // One state for every tab's unsaved edits (tabDrafts.ts): switching tabs keeps them; closing
  // the dialog with some asks first (docs/product.md#edit-bot-modal).
  const drafts = useDraftStore();
  const { dirtyTabs, clear: clearDrafts } = drafts;
  const [confirmingClose, setConfirmingClose] = useState(false);
  const unsaved = botId !== null && dirtyTabs.length > 0;
  const isDirty = (value: EditBotTab) => (dirtyTabs as string[]).includes(value);
  const requestClose = useCallback(() => (unsaved ? setConfirmingClose(true) : onClose()), [onClose, unsaved]);
  const discard = () => {
    setConfirmingClose(false);
    clearDrafts();
    onClose();
  };

  useEffect(() => clearDrafts(), [botId, clearDrafts]);
  // Opened on another bot with a tab asked for (the dashboard's Next steps): that tab, set during render.
  const [openedFor, setOpenedFor] = useState<number | null>(botId);
  if (botId !== openedFor) {
    setOpenedFor(botId);
    if (botId !== null && initialTab) setTab(initialTab);
  }
  // Leaving the page (reload, closing the tab, another address) with unsaved edits: the browser asks.
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const { update } = loaded;
  const saved = useCallback(
    (bot: BotResponse) => {
      update(() => bot);
      onBotChanged(bot);
    },
    [onBotChanged, update],
  );
  const onPreviewSide = useCallback((side: WidgetPosition | null) => setPreviewSide(side), []);

  const bot = loaded.status === 'ready' ? loaded.data : null;
  const title = bot?.name ?? 'Edit bot';
  const room = previewSide ? { [previewSide === 'right' ? 'mr' : 'ml']: `${PREVIEW_ROOM}px` } : {};

  // Kept apart from the tab's form, which re-renders the dialog on every keystroke.
  const dirtyKey = dirtyTabs.join(',');
  const ready = bot !== null;
  const tabBar = useMemo(() => {
    const dirtyList: string[] = dirtyKey.split(',');
    return (
      <Box sx={{ borderBottom: 1, borderColor: 'divider', px: { xs: 1, sm: 3 } }}>
        <Tabs
          value={tab}
          onChange={(_, value: EditBotTab) => setTab(value)}
          aria-label="Bot settings"
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
        >
          {TABS.map((item) => (
            <Tab
              key={item.value}
              value={item.value}
              label={
                <span>
                  {item.label}
                  {dirtyList.includes(item.value) && (
                    <Box
                      component="span"
                      aria-hidden
                      title="Unsaved changes"
                      sx={{
                        display: 'inline-block',
                        width: 8,
                        height: 8,
                        ml: 0.75,
                        mb: '1px',
                        borderRadius: '50%',
                        bgcolor: 'warning.main',
                      }}
                    />
                  )}
                </span>
              }
              aria-label={dirtyList.includes(item.value) ? `${item.label} (unsaved changes)` : undefined}
              id={`edit-bot-tab-${item.value}`}
              aria-controls={`edit-bot-panel-${item.value}`}
              disabled={!ready}
            />
          ))}
        </Tabs>
      </Box>
    );
  }, [tab, dirtyKey, ready]);

  return (
    <Dialog
      open={botId !== null}
      onClose={requestClose}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      aria-labelledby="edit-bot-title"
      // While the preview is on the page, the owner can click into it and type a test message.
      disableEnforceFocus={previewSide !== null}
      slotProps={{
        transition: {
          onExited: () => {
            setTab('details');
            clearDrafts();
          },
        },
        paper: {
          sx: {
            height: { sm: 'min(860px, calc(100% - 64px))' },
            ...(phone && { borderRadius: 0 }),
            transition: theme.transitions.create(['margin']),
            ...(previewSide && { ...room, maxWidth: `calc(100% - ${PREVIEW_ROOM + 64}px)` }),
          },
        },
      }}
    >
      <DialogTitle
        id="edit-bot-title"
        sx={{ pr: 7, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {title}
        <IconButton aria-label="Close" onClick={requestClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      {tabBar}
      <DialogContent
        role="tabpanel"
        id={`edit-bot-panel-${tab}`}
        aria-labelledby={`edit-bot-tab-${tab}`}
        sx={{ px: { xs: 2, sm: 3 }, pt: '24px !important', pb: 0 }}
      >
        {loaded.status === 'loading' && (
          <Stack spacing={2.5} aria-busy="true" aria-label="Loading bot">
            {[0, 1, 2, 3].map((row) => (
              <Skeleton key={row} variant="rounded" height={row === 1 ? 88 : 56} />
            ))}
          </Stack>
        )}
        {loaded.status === 'error' && <RetryAlert onRetry={loaded.reload}>Error fetching bot details.</RetryAlert>}
        {bot && (
          <DraftProvider value={drafts}>
            <Box key={bot.id} sx={{ pb: 3 }}>
              {tab === 'details' && <DetailsTab bot={bot} categories={categories} onSaved={saved} />}
              {tab === 'styling' && <StylingTab bot={bot} onSaved={saved} onPreviewSide={onPreviewSide} />}
              {tab === 'prompting' && <PromptingTab bot={bot} onSaved={saved} />}
              {tab === 'knowledge' && <KnowledgeTab bot={bot} onSaved={saved} />}
              {tab === 'usage' && <BotUsageTab botId={bot.id} onLeave={requestClose} />}
              {tab === 'deploy' && <DeployTab bot={bot} onSaved={saved} />}
              {tab === 'leads' && <LeadsTab bot={bot} ownerEmail={ownerEmail} onSaved={saved} />}
              {tab === 'actions' && <ActionsTab botId={bot.id} />}
              {tab === 'delete' && <DeleteBotTab bot={bot} onDeleted={onBotDeleted} />}
            </Box>
          </DraftProvider>
        )}
      </DialogContent>
      <Dialog
        open={confirmingClose}
        onClose={() => setConfirmingClose(false)}
        aria-labelledby="discard-edits-title"
        aria-describedby="discard-edits-text"
      >
        <DialogTitle id="discard-edits-title">Discard unsaved changes?</DialogTitle>
        <DialogContent>
          <DialogContentText id="discard-edits-text">
            Your changes in {listOf(TABS.filter((item) => isDirty(item.value)).map((item) => item.label))} are not
            saved. Save them on their tab, or discard them.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={discard} color="error">
            Discard changes
          </Button>
          <Button onClick={() => setConfirmingClose(false)} variant="contained" autoFocus>
            Keep editing
          </Button>
        </DialogActions>
      </Dialog>
    </Dialog>
  );
}
