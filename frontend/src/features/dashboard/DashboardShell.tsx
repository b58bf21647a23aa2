import MenuRounded from '@mui/icons-material/MenuRounded';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { BotSummary, CategoryResponse, CurrentUser } from '../../api/types';
import { BrandLogo } from '../../layout/BrandLogo';
import { AddBotDialog } from '../bots/AddBotDialog';
import { EditBotDialog, type EditBotTab } from '../bots/EditBotDialog';
import { ConversationsSection } from '../conversations/ConversationsSection';
import { CONVERSATIONS_PATH } from '../conversations/inboxParams';
import { INSIGHTS_PATH, InsightsSection } from '../insights/InsightsSection';
import { LEADS_PATH, LeadsSection } from '../leads/LeadsSection';
import { AddCategoryDialog } from '../categories/AddCategoryDialog';
import { DeleteCategoryDialog } from '../categories/DeleteCategoryDialog';
import { SettingsDialog, type SettingsTab } from '../settings/SettingsDialog';
import { AccountMenu } from './AccountMenu';
import { BotGrid } from './BotGrid';
import { DemoModeBar } from './DemoModeBar';
import { DashboardSidebar, type CategoryFilter } from './DashboardSidebar';
import { FeedbackNote } from './FeedbackNote';
import { NextSteps } from './NextSteps';
import { useDashboard } from './useDashboard';

export const SIDEBAR_WIDTH = 264;

export type DashboardSection = 'bots' | 'conversations' | 'leads' | 'insights';

/** The path segment after /dashboard of each section but the bots (/dashboard itself). */
export const DASHBOARD_SECTIONS: ReadonlyMap<string, DashboardSection> = new Map([
  ['conversations', 'conversations'],
  ['leads', 'leads'],
  ['insights', 'insights'],
]);

export interface DashboardShellProps {
  user: CurrentUser;
  section: DashboardSection;
}

/** The dashboard itself: header, category sidebar (a drawer on small screens), the bot grid and the dialogs. */
export function DashboardShell({ user, section }: DashboardShellProps) {
  const theme = useTheme();
  const navigate = useNavigate();
  const inbox = section === 'conversations';
  const leadsOpen = section === 'leads';
  const insightsOpen = section === 'insights';
  /** A section other than the bots is open. */
  const elsewhere = inbox || leadsOpen || insightsOpen;
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const data = useDashboard();
  const { selectedCategory } = data;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [addBotOpen, setAddBotOpen] = useState(false);
  const [addCategoryOpen, setAddCategoryOpen] = useState(false);
  // The card pages (Stripe's portal, the test-mode page) come back to /dashboard?settings=billing;
  // the monthly report's opt-out link is /dashboard?settings=account.
  const [askedSettings] = useState(() => new URLSearchParams(window.location.search).get('settings'));
  const [settingsTab, setSettingsTab] = useState<SettingsTab>(askedSettings === 'billing' ? 'billing' : 'account');
  const [settingsOpen, setSettingsOpen] = useState(askedSettings === 'billing' || askedSettings === 'account');
  const closeSettings = () => {
    setSettingsOpen(false);
    if (settingsTab !== 'account' || new URLSearchParams(window.location.search).has('settings')) {
      setSettingsTab('account');
      void navigate(window.location.pathname, { replace: true });
    }
  };
  const [editing, setEditing] = useState<number | null>(null);
  const [editTab, setEditTab] = useState<EditBotTab | undefined>(undefined);
  const [deleting, setDeleting] = useState<CategoryResponse | null>(null);
  const heading = selectedCategory?.name ?? 'All Bots';
  const visible = data.visible;

  const select = (filter: CategoryFilter) => {
    data.select(filter);
    setDrawerOpen(false);
    if (elsewhere) void navigate('/dashboard');
  };

  const openConversations = () => {
    setDrawerOpen(false);
    if (!inbox) void navigate(CONVERSATIONS_PATH);
  };

  const openLeads = () => {
    setDrawerOpen(false);
    if (!leadsOpen) void navigate(LEADS_PATH);
  };

  const openInsights = () => {
    setDrawerOpen(false);
    if (!insightsOpen) void navigate(INSIGHTS_PATH);
  };

  const botCreated = (created: BotSummary) => {
    setAddBotOpen(false);
    void data.botCreated(created);
  };

  const { botDeleted: removeBot } = data;
  const botDeleted = useCallback(
    (botId: number) => {
      setEditing(null);
      removeBot(botId);
    },
    [removeBot],
  );

  const categoryDeleted = (category: CategoryResponse) => {
    setDeleting(null);
    data.categoryDeleted(category);
  };

  const sidebar = (
    <DashboardSidebar
      categories={data.categories}
      counts={data.counts}
      selected={elsewhere ? null : data.selected}
      onSelect={select}
      conversationsOpen={inbox}
      onOpenConversations={openConversations}
      leadsOpen={leadsOpen}
      onOpenLeads={openLeads}
      insightsOpen={insightsOpen}
      onOpenInsights={openInsights}
      onDelete={setDeleting}
      onAdd={() => setAddCategoryOpen(true)}
      email={user.email}
    />
  );

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      {user.demoMode && <DemoModeBar />}
      <Box
        component="header"
        sx={{
          position: 'sticky',
          top: 0,
          zIndex: theme.zIndex.appBar,
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          height: 64,
          px: { xs: 1.5, md: 3 },
          bgcolor: 'background.paper',
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        {!wide && (
          <IconButton aria-label="Open menu" onClick={() => setDrawerOpen(true)} edge="start">
            <MenuRounded />
          </IconButton>
        )}
        <BrandLogo size={28} withWordmark={wide} />
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          color="inherit"
          startIcon={<SettingsOutlined />}
          onClick={() => setSettingsOpen(true)}
        >
          Settings
        </Button>
        <AccountMenu email={user.email} onOpenSettings={() => setSettingsOpen(true)} />
      </Box>

      <Box sx={{ display: 'flex' }}>
        {wide ? (
          <Box
            component="aside"
            sx={{
              width: SIDEBAR_WIDTH,
              flexShrink: 0,
              position: 'sticky',
              top: 64,
              height: 'calc(100vh - 64px)',
              bgcolor: 'background.paper',
              borderRight: 1,
              borderColor: 'divider',
            }}
          >
            {sidebar}
          </Box>
        ) : (
          <Drawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH } } }}
          >
            {sidebar}
          </Drawer>
        )}

        <Box component="main" sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3, md: 5 }, py: { xs: 3, md: 4 } }}>
          {inbox ? (
            <ConversationsSection bots={data.bots} />
          ) : leadsOpen ? (
            <LeadsSection bots={data.bots} />
          ) : insightsOpen ? (
            <InsightsSection bots={data.bots} />
          ) : (
            <>
              <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 3, gap: 2 }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="h3" component="h1" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {heading}
                  </Typography>
                  {data.bots && data.botsStatus !== 'error' && (
                    <Typography variant="body2" color="textSecondary">
                      {visible?.length === 1 ? '1 bot' : `${visible?.length ?? 0} bots`}
                    </Typography>
                  )}
                </Box>
              </Stack>

              {!selectedCategory && data.botsStatus === 'ready' && (
                <NextSteps
                  accountId={user.id}
                  bots={data.bots}
                  refreshKey={editing}
                  onOpenBot={(botId, tab) => {
                    setEditTab(tab);
                    setEditing(botId);
                  }}
                  onAddBot={() => setAddBotOpen(true)}
                />
              )}

              <BotGrid
                bots={visible}
                loading={data.botsStatus === 'loading'}
                error={data.botsStatus === 'error'}
                emptyTitle={selectedCategory ? 'No bots in this category yet' : 'No bots yet'}
                emptyText={
                  selectedCategory
                    ? 'Add a new bot here, or move one in from its Details tab.'
                    : 'Create your first bot: name it, style it, teach it, then paste one line on your site.'
                }
                onOpen={(bot) => {
                  setEditTab(undefined);
                  setEditing(bot.id);
                }}
                onAdd={() => setAddBotOpen(true)}
                onRetry={data.reload}
              />

              <Box sx={{ mt: 5 }}>
                <FeedbackNote />
              </Box>
            </>
          )}
        </Box>
      </Box>

      <AddBotDialog open={addBotOpen} onClose={() => setAddBotOpen(false)} onCreated={botCreated} />
      <AddCategoryDialog
        open={addCategoryOpen}
        onClose={() => setAddCategoryOpen(false)}
        onCreated={(category) => {
          setAddCategoryOpen(false);
          data.categoryAdded(category);
        }}
      />
      <DeleteCategoryDialog category={deleting} onClose={() => setDeleting(null)} onDeleted={categoryDeleted} />
      <EditBotDialog
        botId={editing}
        categories={data.categories ?? []}
        onClose={() => setEditing(null)}
        onBotChanged={data.botChanged}
        onBotDeleted={botDeleted}
        ownerEmail={user.email}
        initialTab={editTab}
      />
      <SettingsDialog open={settingsOpen} onClose={closeSettings} email={user.email} initialTab={settingsTab} />
    </Box>
  );
}
