import LogoutRounded from '@mui/icons-material/LogoutRounded';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { authApi } from '../../api';

export interface AccountMenuProps {
  email: string;
  onOpenSettings: () => void;
}

/**
 * The account menu in the dashboard header (docs/product.md#dashboard): the owner's e-mail,
 * Settings and Sign out (then /login, even if the session had already ended), so signing out is
 * not hidden inside Settings.
 */
export function AccountMenu({ email, onOpenSettings }: AccountMenuProps) {
  const navigate = useNavigate();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  const close = () => setAnchor(null);

  const signOut = async () => {
    setSigningOut(true);
    try {
      await authApi.logout();
    } catch {
      // Already signed out or offline: the login page is still the right place to go.
    }
    close();
    await navigate('/login');
  };

  return (
    <>
      <IconButton
        aria-label={`Account menu (${email})`}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <Avatar sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: '0.95rem' }} aria-hidden>
          {email.charAt(0).toUpperCase()}
        </Avatar>
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Typography variant="body2" color="textSecondary" sx={{ px: 2, py: 1, maxWidth: 280, wordBreak: 'break-all' }}>
          Signed in as <strong>{email}</strong>
        </Typography>
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            onOpenSettings();
          }}
        >
          <ListItemIcon>
            <SettingsOutlined fontSize="small" />
          </ListItemIcon>
          Settings
        </MenuItem>
        <MenuItem onClick={() => void signOut()} disabled={signingOut}>
          <ListItemIcon>
            <LogoutRounded fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
}
