export type { SettingsResponse } from '@botsmith/contract';
import { ApiProperty } from '@nestjs/swagger';
import { CONVERSATION_RETENTION_CHOICES, type ConversationRetentionDays } from '@botsmith/contract';
import { IsIn, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { SPEND_ALERT_DOLLARS_MAX } from '../../common/constants.js';

const WHOLE_DOLLARS = 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more';
const RETENTION = 'Invalid conversationRetentionDays: must be 30, 90, 365, or null (forever)';

/** PUT /api/user/settings: the fields to change (at least one); an absent field keeps its value. */
export class UpdateSettingsDto {
  /**
   * The account spend per billing period the owner is mailed about (at each 50 % step); 0 = no mail.
   * Required unless the request changes the retention alone, so an empty body is still refused.
   */
  @ValidateIf(
    (dto: UpdateSettingsDto) => dto.spendAlertDollars !== undefined || dto.conversationRetentionDays === undefined,
  )
  @Max(SPEND_ALERT_DOLLARS_MAX, { message: `Invalid spendAlertDollars: must be at most ${SPEND_ALERT_DOLLARS_MAX}` })
  @Min(0, { message: WHOLE_DOLLARS })
  @IsInt({ message: WHOLE_DOLLARS })
  spendAlertDollars?: number;

  /** Days a visitor's conversation is kept after its last message; null = forever. */
  @ApiProperty({ enum: [30, 90, 365], nullable: true, type: 'integer', required: false })
  @ValidateIf((dto: UpdateSettingsDto) => dto.conversationRetentionDays !== undefined)
  @IsIn(CONVERSATION_RETENTION_CHOICES, { message: RETENTION })
  conversationRetentionDays?: ConversationRetentionDays;
}
