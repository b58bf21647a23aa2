import { usageLimitValue } from '../usage/usageLimit';
import { WholeDollarField } from '../usage/WholeDollarField';
import { AccountSettingForm } from './AccountSettingForm';

const TEXTS = {
  name: 'Spend alert',
  saveLabel: 'Save alert',
  saved: 'Spend alert saved.',
  saveFailed: 'Error saving spend alert.',
  loadFailed: 'Error fetching your spend alert.',
};

/**
 * Settings > Usage: the account spend alert. The owner is e-mailed each time this billing
 * period's spend, over all bots, passes another 50% of this amount; 0 turns the e-mails off.
 */
export function SpendAlertField() {
  return (
    <AccountSettingForm<string>
      read={(settings) => String(settings.spendAlertDollars)}
      write={(text) => ({ spendAlertDollars: usageLimitValue(text) })}
      texts={TEXTS}
    >
      {(text, setText) => (
        <WholeDollarField
          label="Spend alert (USD per month)"
          value={text ?? ''}
          onChange={setText}
          helperText="We email you each time this month's spend, over all your bots, passes another 50% of this amount. 0 turns these emails off."
          disabled={text === null}
          sx={{ maxWidth: { sm: 360 } }}
        />
      )}
    </AccountSettingForm>
  );
}
