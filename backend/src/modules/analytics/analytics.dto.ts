import { ANALYTICS_GROUP_BY, type AnalyticsGroupBy, type AnalyticsQuery } from '@botsmith/contract';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** GET /api/analytics. Dates and the time zone are checked for real by resolvePeriod. */
export class AnalyticsQueryDto implements AnalyticsQuery {
  @IsOptional()
  @IsString()
  @Matches(/^[1-9]\d{0,9}$/, { message: 'botId must be a whole number' })
  botId?: string;

  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'from must be a date written YYYY-MM-DD' })
  from?: string;

  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'to must be a date written YYYY-MM-DD' })
  to?: string;

  @IsOptional()
  @IsIn(ANALYTICS_GROUP_BY, { message: 'groupBy must be day or week' })
  groupBy?: AnalyticsGroupBy;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, { message: 'timeZone must be an IANA time zone such as Europe/Berlin' })
  timeZone?: string;
}
