import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

export interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
  /** The signed-in owner's e-mail, shown on the Account tab. */
  email: string;
}

type SettingsTab = 'account' | 'usage' | 'logs' | 'delete';

/** The settings modal: Account, Usage, Logs, Delete (default Account). Being built out in issue 8. */
export function SettingsDialog({ open, onClose, email }: SettingsDialogProps) {
  const [tab, setTab] = useState<SettingsTab>('account');
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Settings</DialogTitle>
      <DialogContent>
        <Tabs value={tab} onChange={(_, value: SettingsTab) => setTab(value)} aria-label="Settings">
          <Tab value="account" label="Account" />
          <Tab value="usage" label="Usage" />
          <Tab value="logs" label="Logs" />
          <Tab value="delete" label="Delete" />
        </Tabs>
        <Box sx={{ pt: 3 }}>{tab === 'account' && <Typography>{email}</Typography>}</Box>
      </DialogContent>
    </Dialog>
  );
}
