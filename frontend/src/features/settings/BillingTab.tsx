import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { BillingCard, BillingInvoice } from '@botsmith/contract';
import { useState } from 'react';
import { billingApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { errorMessage, externalNavigation } from '../billing/billingFlow';
import { formatDollars, formatUtcDay } from '../usage/usageFormat';

const loadOverview = () => billingApi.getOverview();

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

export function cardLabel(card: BillingCard): string {
  return `${BRANDS[card.brand] ?? card.brand} ending in ${card.last4}`;
}

export function cardExpiry(card: BillingCard): string {
  return `Expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
}

const STATUS: Record<string, { label: string; color: 'success' | 'warning' | 'default' | 'error' }> = {
  paid: { label: 'Paid', color: 'success' },
  open: { label: 'Due', color: 'warning' },
  draft: { label: 'Draft', color: 'default' },
  void: { label: 'Void', color: 'default' },
  uncollectible: { label: 'Unpaid', color: 'error' },
};

function InvoiceStatus({ status }: { status: string }) {
  const known = STATUS[status] ?? { label: status, color: 'default' as const };
  return <Chip size="small" label={known.label} color={known.color} variant="outlined" />;
}

function InvoiceLink({ invoice }: { invoice: BillingInvoice }) {
  if (!invoice.url) {
    return (
      <Typography variant="body2" color="textSecondary" component="span">
        No page in test mode
      </Typography>
    );
  }
  return (
    <Link href={invoice.url} target="_blank" rel="noopener noreferrer">
      View<Box component="span" sx={visuallyHidden}>{` invoice of ${formatUtcDay(new Date(invoice.created))}`}</Box>
    </Link>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * Settings > Billing (docs/product.md#settings-modal): the card on file, the latest invoices and
 * "Change card" (Stripe's customer portal, or the built-in test-mode card page, which come back here).
 */
export function BillingTab() {
  const overview = useApiResource(loadOverview);
  const [opening, setOpening] = useState(false);
  const [portalError, setPortalError] = useState<string | null>(null);

  const changeCard = async () => {
    setOpening(true);
    setPortalError(null);
    try {
      const { url } = await billingApi.createPortalSession();
      externalNavigation.go(url);
    } catch (cause) {
      setOpening(false);
      setPortalError(errorMessage(cause, 'We could not open the card page. Please try again.'));
    }
  };

  if (overview.status === 'error') {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={overview.reload}>
            Try again
          </Button>
        }
      >
        {errorMessage(overview.error, 'Error fetching your billing details.')}
      </Alert>
    );
  }
  const data = overview.status === 'ready' ? overview.data : null;

  return (
    <Stack spacing={3}>
      <Box component="section" aria-labelledby="billing-card-title">
        <Typography id="billing-card-title" variant="h6" component="h3" gutterBottom>
          Card on file
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' }, p: 2, border: 1, borderColor: 'divider', borderRadius: 2 }}
        >
          <Box sx={{ flex: 1 }}>
            {!data ? (
              <Skeleton width={220} height={32} aria-label="Loading card" />
            ) : data.card ? (
              <>
                <Typography variant="body1" sx={{ fontWeight: 600 }} data-testid="billing-card">
                  {cardLabel(data.card)}
                </Typography>
                <Typography variant="body2" color="textSecondary">
                  {cardExpiry(data.card)}
                </Typography>
              </>
            ) : (
              <Typography variant="body1">No card on file yet.</Typography>
            )}
          </Box>
          <Button variant="outlined" onClick={() => void changeCard()} disabled={!data?.card || opening}>
            {opening ? 'Opening…' : 'Change card'}
          </Button>
        </Stack>
        {data?.testMode && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
            Test mode: no real charge. Change card opens the built-in test card page.
          </Typography>
        )}
        {portalError && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {portalError}
          </Alert>
        )}
      </Box>

      <Box component="section" aria-labelledby="billing-invoices-title">
        <Typography id="billing-invoices-title" variant="h6" component="h3" gutterBottom>
          Invoices
        </Typography>
        {!data ? (
          <Skeleton variant="rounded" height={120} aria-label="Loading invoices" />
        ) : data.invoices.length === 0 ? (
          <Typography variant="body2" color="textSecondary">
            No invoices yet. You are billed on the 3rd of each month for the answers of the month before, after your
            free credits.
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-labelledby="billing-invoices-title">
              <TableHead>
                <TableRow>
                  <TableCell>Date</TableCell>
                  <TableCell align="right">Amount</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Invoice</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.invoices.map((invoice) => (
                  <TableRow key={invoice.id}>
                    <TableCell>{formatUtcDay(new Date(invoice.created))}</TableCell>
                    <TableCell align="right">{formatDollars(invoice.amountCents)}</TableCell>
                    <TableCell>
                      <InvoiceStatus status={invoice.status} />
                    </TableCell>
                    <TableCell>
                      <InvoiceLink invoice={invoice} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Box>
    </Stack>
  );
}
