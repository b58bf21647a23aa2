import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { authApi } from '../../api';

/** Settings > Delete: two clicks ('Delete My Account', then 'Confirm Delete My Account'), then /. */
export function DeleteAccountTab() {
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const onClick = async () => {
    if (!confirming) {
      setConfirming(true);
      return;
    }
    setDeleting(true);
    try {
      await authApi.deleteAccount();
      await navigate('/');
    } catch {
      enqueueSnackbar('Error deleting account.', { variant: 'error' });
      setDeleting(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Alert severity="warning">
        Deleting your account removes your bots, their documents and your sessions. This cannot be undone. Usage of the
        current month is still billed on the 3rd.
      </Alert>
      <Button variant="contained" color="error" onClick={() => void onClick()} disabled={deleting}>
        {confirming ? 'Confirm Delete My Account' : 'Delete My Account'}
      </Button>
      {confirming && !deleting && (
        <Button variant="text" onClick={() => setConfirming(false)}>
          Cancel
        </Button>
      )}
    </Stack>
  );
}
