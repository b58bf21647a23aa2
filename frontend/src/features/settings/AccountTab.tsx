import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { authApi } from '../../api';
import { AgentNameForm } from './AgentNameForm';
import { MonthlyReportForm } from './MonthlyReportForm';
import { TimeZoneForm } from './TimeZoneForm';

export interface AccountTabProps {
  email: string;
}

/**
 * The owner's e-mail, the name on their replies to visitors, their time zone, the monthly report,
 * and Sign Out (then /login, even if
 * the session had already ended).
 */
export function AccountTab({ email }: AccountTabProps) {
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    setSigningOut(true);
    try {
      await authApi.logout();
    } catch {
      // Already signed out or offline: the login page is still the right place to go.
    }
    await navigate('/login');
  };

  return (
    <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
      <div>
        <Typography variant="overline" color="textSecondary" component="h3">
          E-mail
        </Typography>
        <Typography sx={{ wordBreak: 'break-all' }}>{email}</Typography>
      </div>
      <AgentNameForm />
      <TimeZoneForm />
      <MonthlyReportForm />
      <Button variant="outlined" onClick={() => void signOut()} disabled={signingOut}>
        Sign Out
      </Button>
    </Stack>
  );
}
