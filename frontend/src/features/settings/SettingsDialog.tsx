import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { AccountTab } from './AccountTab';
import { BillingTab } from './BillingTab';
import { DeleteAccountTab } from './DeleteAccountTab';
import { IntegrationsTab } from './IntegrationsTab';
import { LogsTab } from './LogsTab';
import { PrivacyTab } from './PrivacyTab';
import { UsageTab } from './UsageTab';

export interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
  /** The signed-in owner's e-mail, shown on the Account tab. */
  email: string;
  /** The tab it opens on (Account unless said; the card pages come back to Billing). */
  initialTab?: SettingsTab;
}

export type SettingsTab = 'account' | 'usage' | 'billing' | 'logs' | 'privacy' | 'integrations' | 'delete';

const TABS: Array<{ value: SettingsTab; label: string }> = [
  { value: 'account', label: 'Account' },
  { value: 'usage', label: 'Usage' },
  { value: 'billing', label: 'Billing' },
  { value: 'logs', label: 'Logs' },
  { value: 'privacy', label: 'Privacy' },
  { value: 'integrations', label: 'Integrations' },
  { value: 'delete', label: 'Delete' },
];

/**
 * The settings modal (docs/product.md#settings-modal): Account, Usage, Billing, Logs, Privacy, Integrations, Delete; opens on Account. A tab's
 * data is fetched when the tab is shown, so reopening the modal shows fresh figures.
 */
export function SettingsDialog({ open, onClose, email, initialTab = 'account' }: SettingsDialogProps) {
  const [tab, setTab] = useState<SettingsTab>(initialTab);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="settings-dialog-title"
      // The next opening starts on Account again.
      slotProps={{ transition: { onExited: () => setTab('account'), onEnter: () => setTab(initialTab) } }}
    >
      <DialogTitle id="settings-dialog-title" sx={{ pr: 6 }}>
        Settings
        <IconButton aria-label="Close settings" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', px: 3 }}>
        <Tabs
          value={tab}
          onChange={(_, value: SettingsTab) => setTab(value)}
          aria-label="Settings sections"
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {TABS.map(({ value, label }) => (
            <Tab
              key={value}
              value={value}
              label={label}
              id={`settings-tab-${value}`}
              aria-controls={`settings-panel-${value}`}
            />
          ))}
        </Tabs>
      </Box>
      <DialogContent>
        <Box role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`} sx={{ pt: 1 }}>
          {tab === 'account' && <AccountTab email={email} />}
          {tab === 'usage' && <UsageTab />}
          {tab === 'billing' && <BillingTab />}
          {tab === 'logs' && <LogsTab />}
          {tab === 'privacy' && <PrivacyTab />}
          {tab === 'integrations' && <IntegrationsTab />}
          {tab === 'delete' && <DeleteAccountTab />}
        </Box>
      </DialogContent>
    </Dialog>
  );
}
