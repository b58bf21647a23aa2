import AppsRounded from '@mui/icons-material/AppsRounded';
import DeleteOutline from '@mui/icons-material/DeleteOutlineRounded';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import ContactMailOutlined from '@mui/icons-material/ContactMailOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { CategoryResponse } from '../../api/types';
import { useWaitingCount } from '../conversations/useWaitingCount';

export type CategoryFilter = 'all' | number;

export interface DashboardSidebarProps {
  categories: CategoryResponse[] | null;
  /** Bots per category id, and 'all'. */
  counts: Map<CategoryFilter, number>;
  /** The open category or All Bots; null while another section (the conversations) is open. */
  selected: CategoryFilter | null;
  onSelect: (filter: CategoryFilter) => void;
  conversationsOpen: boolean;
  onOpenConversations: () => void;
  leadsOpen?: boolean;
  onOpenLeads?: () => void;
  insightsOpen?: boolean;
  onOpenInsights?: () => void;
  onDelete: (category: CategoryResponse) => void;
  onAdd: () => void;
  email: string;
}

/** All Bots and the owner's categories (each with a delete icon), and '+ Add Category'. */
export function DashboardSidebar({
  categories,
  counts,
  selected,
  onSelect,
  onDelete,
  onAdd,
  email,
  conversationsOpen,
  onOpenConversations,
  leadsOpen = false,
  onOpenLeads,
  insightsOpen = false,
  onOpenInsights,
}: DashboardSidebarProps) {
  const count = (filter: CategoryFilter) => counts.get(filter) ?? 0;
  return (
    <Box component="nav" aria-label="Bot categories" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <List sx={{ px: 1.5, pt: 2 }}>
        <ListItem disablePadding>
          <ListItemButton
            selected={selected === 'all'}
            aria-current={selected === 'all' ? 'page' : undefined}
            onClick={() => onSelect('all')}
            sx={{ borderRadius: 2 }}
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              <AppsRounded fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="All Bots" />
            <Typography variant="caption" color="textSecondary" aria-label={`${count('all')} bots`}>
              {count('all')}
            </Typography>
          </ListItemButton>
        </ListItem>
        <ListItem disablePadding>
          <ListItemButton
            selected={conversationsOpen}
            aria-current={conversationsOpen ? 'page' : undefined}
            onClick={onOpenConversations}
            sx={{ borderRadius: 2 }}
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              <ForumOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Conversations" />
            <WaitingBadge />
          </ListItemButton>
        </ListItem>
        {onOpenLeads && (
          <ListItem disablePadding>
            <ListItemButton
              selected={leadsOpen}
              aria-current={leadsOpen ? 'page' : undefined}
              onClick={onOpenLeads}
              sx={{ borderRadius: 2 }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <ContactMailOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary="Leads" />
            </ListItemButton>
          </ListItem>
        )}
        {onOpenInsights && (
          <ListItem disablePadding>
            <ListItemButton
              selected={insightsOpen}
              aria-current={insightsOpen ? 'page' : undefined}
              onClick={onOpenInsights}
              sx={{ borderRadius: 2 }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <InsightsOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary="Insights" />
            </ListItemButton>
          </ListItem>
        )}
      </List>
      <List
        sx={{ px: 1.5, flex: 1, overflowY: 'auto' }}
        subheader={
          <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: '32px', px: 1.5 }}>
            Categories
          </ListSubheader>
        }
      >
        {categories === null &&
          [0, 1].map((key) => (
            <ListItem key={key} sx={{ px: 1.5 }}>
              <Skeleton width="70%" height={28} />
            </ListItem>
          ))}
        {categories?.length === 0 && (
          <Typography variant="body2" color="textSecondary" sx={{ px: 1.5, py: 1 }}>
            No categories yet.
          </Typography>
        )}
        {categories?.map((category) => (
          <ListItem
            key={category.id}
            disablePadding
            secondaryAction={
              <Tooltip title="Delete category">
                <IconButton
                  edge="end"
                  size="small"
                  aria-label={`Delete category ${category.name}`}
                  onClick={() => onDelete(category)}
                  sx={{ color: 'text.secondary', '&:hover': { color: 'error.main' } }}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            }
            sx={{ '& .MuiListItemSecondaryAction-root': { right: 12 } }}
          >
            <ListItemButton
              selected={selected === category.id}
              aria-current={selected === category.id ? 'page' : undefined}
              onClick={() => onSelect(category.id)}
              sx={{ borderRadius: 2, pr: '72px !important' }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <FolderOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={category.name} slotProps={{ primary: { noWrap: true, title: category.name } }} />
              <Typography variant="caption" color="textSecondary" sx={{ ml: 1 }}>
                {count(category.id)}
              </Typography>
            </ListItemButton>
          </ListItem>
        ))}
        <ListItem sx={{ px: 0.5, pt: 1 }}>
          <Button onClick={onAdd} size="small" sx={{ justifyContent: 'flex-start', fontWeight: 700 }}>
            + Add Category
          </Button>
        </ListItem>
      </List>
      <Box sx={{ px: 2.5, py: 2, borderTop: 1, borderColor: 'divider' }}>
        <Typography variant="caption" color="textSecondary" component="p">
          Signed in as
        </Typography>
        <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }} title={email}>
          {email}
        </Typography>
      </Box>
    </Box>
  );
}

/** "3 waiting": handed-off conversations whose visitor wrote last; nothing when none wait. */
function WaitingBadge() {
  const waiting = useWaitingCount();
  if (!waiting) return null;
  return (
    <Chip
      size="small"
      color="warning"
      label={waiting > 99 ? '99+' : waiting}
      aria-label={`${waiting} waiting for you`}
      title={`${waiting} waiting for you`}
      sx={{ height: 20, fontWeight: 700 }}
    />
  );
}
