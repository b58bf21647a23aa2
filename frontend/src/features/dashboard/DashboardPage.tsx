import MenuRounded from '@mui/icons-material/MenuRounded';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { botsApi, categoriesApi } from '../../api';
import type { Bot, BotSummary, Category, CurrentUser } from '../../api/types';
import { BrandLogo } from '../../layout/BrandLogo';
import { usePageTitle } from '../../layout/usePageTitle';
import { AddBotDialog } from '../bots/AddBotDialog';
import { EditBotDialog } from '../bots/EditBotDialog';
import { AddCategoryDialog } from '../categories/AddCategoryDialog';
import { DeleteCategoryDialog } from '../categories/DeleteCategoryDialog';
import { SettingsDialog } from '../settings/SettingsDialog';
import { BotGrid } from './BotGrid';
import { DashboardSidebar, type CategoryFilter } from './DashboardSidebar';
import { destinationForError } from './dashboardRouting';
import { FeedbackNote } from './FeedbackNote';
import { useDashboardGate } from './useDashboardGate';

const SIDEBAR_WIDTH = 264;

/** /dashboard: the owner's workspace, behind the brief's dashboard gate. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const gate = useDashboardGate();
  if (gate.status === 'ready') return <Dashboard user={gate.user} />;
  if (gate.status === 'error') {
    return (
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={gate.retry}>
              Retry
            </Button>
          }
        >
          Error fetching user info.
        </Alert>
      </Container>
    );
  }
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }} aria-busy="true" aria-label="Loading your dashboard">
      <Box
        sx={{ width: SIDEBAR_WIDTH, display: { xs: 'none', md: 'block' }, borderRight: 1, borderColor: 'divider' }}
      />
      <Box sx={{ flex: 1, p: { xs: 2, md: 4 } }}>
        <Skeleton width={220} height={48} />
        <Skeleton variant="rounded" height={168} sx={{ mt: 3, maxWidth: 260, borderRadius: 3 }} />
      </Box>
    </Box>
  );
}

type Loadable<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error' };

interface DashboardProps {
  user: CurrentUser;
}

function Dashboard({ user }: DashboardProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const navigate = useNavigate();
  const [bots, setBots] = useState<Loadable<Bot[]>>({ status: 'loading' });
  const [categories, setCategories] = useState<Category[] | null>(null);
  const [selected, setSelected] = useState<CategoryFilter>('all');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [addBotOpen, setAddBotOpen] = useState(false);
  const [addCategoryOpen, setAddCategoryOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const [attempt, setAttempt] = useState(0);

  const failed = useCallback(
    (error: unknown) => {
      const destination = destinationForError(error);
      if (destination) void navigate(destination, { replace: true });
      return destination !== null;
    },
    [navigate],
  );

  useEffect(() => {
    let active = true;
    botsApi.list().then(
      ({ bots: list }) => active && setBots({ status: 'ready', data: list }),
      (error: unknown) => active && !failed(error) && setBots({ status: 'error' }),
    );
    categoriesApi.list().then(
      ({ categories: list }) => active && setCategories(list),
      (error: unknown) => active && !failed(error) && setCategories([]),
    );
    return () => {
      active = false;
    };
  }, [attempt, failed]);

  const allBots = useMemo(() => (bots.status === 'ready' ? bots.data : null), [bots]);
  const counts = useMemo(() => {
    const map = new Map<CategoryFilter, number>([['all', allBots?.length ?? 0]]);
    for (const bot of allBots ?? []) {
      if (bot.categoryId !== null) map.set(bot.categoryId, (map.get(bot.categoryId) ?? 0) + 1);
    }
    return map;
  }, [allBots]);
  const selectedCategory = selected === 'all' ? null : (categories?.find((c) => c.id === selected) ?? null);
  const heading = selectedCategory?.name ?? 'All Bots';
  const visible = allBots && (selected === 'all' ? allBots : allBots.filter((bot) => bot.categoryId === selected));

  const select = (filter: CategoryFilter) => {
    setSelected(filter);
    setDrawerOpen(false);
  };

  const botCreated = async (created: BotSummary) => {
    setAddBotOpen(false);
    let added: Bot;
    try {
      // A bot created while a category is open goes into it, so it appears where the owner is.
      added = selectedCategory
        ? (await botsApi.update(created.id, { categoryId: selectedCategory.id })).bot
        : (await botsApi.get(created.id)).bot;
    } catch {
      setAttempt((n) => n + 1);
      return;
    }
    setBots((current) => (current.status === 'ready' ? { status: 'ready', data: [...current.data, added] } : current));
  };

  const botChanged = useCallback((bot: Bot) => {
    setBots((current) =>
      current.status === 'ready'
        ? { status: 'ready', data: current.data.map((b) => (b.id === bot.id ? { ...b, ...bot } : b)) }
        : current,
    );
  }, []);

  const botDeleted = useCallback((botId: number) => {
    setEditing(null);
    setBots((current) =>
      current.status === 'ready' ? { status: 'ready', data: current.data.filter((b) => b.id !== botId) } : current,
    );
  }, []);

  const categoryDeleted = (category: Category) => {
    setDeleting(null);
    setCategories((current) => current?.filter((c) => c.id !== category.id) ?? null);
    setBots((current) =>
      current.status === 'ready'
        ? {
            status: 'ready',
            data: current.data.map((b) => (b.categoryId === category.id ? { ...b, categoryId: null } : b)),
          }
        : current,
    );
    if (selected === category.id) setSelected('all');
  };

  const sidebar = (
    <DashboardSidebar
      categories={categories}
      counts={counts}
      selected={selected}
      onSelect={select}
      onDelete={setDeleting}
      onAdd={() => setAddCategoryOpen(true)}
      email={user.email}
    />
  );

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
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
          <IconButton aria-label="Open categories" onClick={() => setDrawerOpen(true)} edge="start">
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
          <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 3, gap: 2 }}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h3" component="h1" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {heading}
              </Typography>
              {allBots && (
                <Typography variant="body2" color="textSecondary">
                  {visible?.length === 1 ? '1 bot' : `${visible?.length ?? 0} bots`}
                </Typography>
              )}
            </Box>
          </Stack>

          <BotGrid
            bots={visible}
            loading={bots.status === 'loading'}
            error={bots.status === 'error'}
            emptyTitle={selectedCategory ? 'No bots in this category yet' : 'No bots yet'}
            emptyText={
              selectedCategory
                ? 'Add a new bot here, or move one in from its Details tab.'
                : 'Create your first bot: name it, style it, teach it, then paste one line on your site.'
            }
            onOpen={(bot) => setEditing(bot.id)}
            onAdd={() => setAddBotOpen(true)}
            onRetry={() => {
              setBots({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          />

          <Box sx={{ mt: 5 }}>
            <FeedbackNote />
          </Box>
        </Box>
      </Box>

      <AddBotDialog open={addBotOpen} onClose={() => setAddBotOpen(false)} onCreated={(bot) => void botCreated(bot)} />
      <AddCategoryDialog
        open={addCategoryOpen}
        onClose={() => setAddCategoryOpen(false)}
        onCreated={(category) => {
          setAddCategoryOpen(false);
          setCategories((current) => [...(current ?? []), category]);
        }}
      />
      <DeleteCategoryDialog category={deleting} onClose={() => setDeleting(null)} onDeleted={categoryDeleted} />
      <EditBotDialog
        botId={editing}
        categories={categories ?? []}
        onClose={() => setEditing(null)}
        onBotChanged={botChanged}
        onBotDeleted={botDeleted}
      />
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} email={user.email} />
    </Box>
  );
}
