export type { SettingsResponse } from '@botsmith/contract';
import { ApiProperty } from '@nestjs/swagger';
import {
  CONVERSATION_RETENTION_CHOICES,
  OWNER_REPLY_LIMITS,
  type ConversationRetentionDays,
  type UpdateSettingsRequest,
} from '@botsmith/contract';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Max,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateBy,
} from 'class-validator';
import { isTimeZone } from '../../common/time-zone.js';
import { SPEND_ALERT_DOLLARS_MAX } from '../../common/constants.js';

const WHOLE_DOLLARS = 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more';
const RETENTION = 'Invalid conversationRetentionDays: must be 30, 90, 365, or null (forever)';
const AGENT_NAME = `Invalid agentName: must be text of 1 to ${OWNER_REPLY_LIMITS.agentNameMaxChars} characters`;
/** Also the answer when PostgreSQL does not know a name Intl knows (UsersService.updateSettings). */
export const TIME_ZONE_SETTING_REFUSED =
  "Invalid timeZone: must be an IANA time zone such as Europe/Berlin, or null for the browser's";
const MONTHLY_REPORT = 'Invalid monthlyReport: must be true or false';
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** PUT /api/user/settings: the fields to change (at least one); an absent field keeps its value. */
export class UpdateSettingsDto implements UpdateSettingsRequest {
  /**
   * The account spend per billing period the owner is mailed about (at each 50 % step); 0 = no mail.
   * Required unless the request changes the retention or the agent name alone, so an empty body is still refused.
   */
  @ValidateIf(
    (dto: UpdateSettingsDto) =>
      dto.spendAlertDollars !== undefined ||
      (dto.conversationRetentionDays === undefined &&
        dto.agentName === undefined &&
        dto.timeZone === undefined &&
        dto.monthlyReport === undefined),
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

  /** The name visitors see on the owner's replies (docs/product.md#owner-replies), trimmed. */
  @ValidateIf((dto: UpdateSettingsDto) => dto.agentName !== undefined)
  @Transform(trim)
  @MaxLength(OWNER_REPLY_LIMITS.agentNameMaxChars, { message: AGENT_NAME })
  @IsNotEmpty({ message: AGENT_NAME })
  @IsString({ message: AGENT_NAME })
  agentName?: string;

  /**
   * The IANA time zone of analytics' days and hours and of the monthly report; null = the
   * browser's. A name Intl knows; UsersService checks that the database knows it too.
   */
  @ApiProperty({ type: 'string', nullable: true, required: false, example: 'Europe/Paris' })
  @ValidateIf((dto: UpdateSettingsDto) => dto.timeZone !== undefined && dto.timeZone !== null)
  @ValidateBy(
    { name: 'isTimeZone', validator: { validate: (value: unknown) => typeof value === 'string' && isTimeZone(value) } },
    { message: TIME_ZONE_SETTING_REFUSED },
  )
  @Matches(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, { message: TIME_ZONE_SETTING_REFUSED })
  @MaxLength(64, { message: TIME_ZONE_SETTING_REFUSED })
  @IsString({ message: TIME_ZONE_SETTING_REFUSED })
  timeZone?: string | null;

  /** Whether the monthly report mail is sent (docs/product.md#monthly-report). */
  @ValidateIf((dto: UpdateSettingsDto) => dto.monthlyReport !== undefined)
  @IsBoolean({ message: MONTHLY_REPORT })
  monthlyReport?: boolean;
}
