export type { SettingsResponse } from '@botsmith/contract';
import { IsInt, Max, Min } from 'class-validator';
import { SPEND_ALERT_DOLLARS_MAX } from '../../common/constants.js';

const WHOLE_DOLLARS = 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more';

/** PUT /api/user/settings. */
export class UpdateSettingsDto {
  /** The account spend per billing period the owner is mailed about (at each 50 % step); 0 = no mail. */
  @Max(SPEND_ALERT_DOLLARS_MAX, { message: `Invalid spendAlertDollars: must be at most ${SPEND_ALERT_DOLLARS_MAX}` })
  @Min(0, { message: WHOLE_DOLLARS })
  @IsInt({ message: WHOLE_DOLLARS })
  spendAlertDollars!: number;
}
