import type { LeadFiltersQuery, LeadsPageQuery } from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** An empty parameter (`?botId=`) is the same as leaving it out: forms send every field. */
const emptyIsAbsent = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** GET /api/leads/export: which bot's leads (all when absent). LeadsService checks it is the owner's. */
export class LeadFiltersDto implements LeadFiltersQuery {
  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @Matches(/^[1-9]\d{0,9}$/, { message: 'botId must be a whole number' })
  botId?: string;
}

/** GET /api/leads: the filter plus where the previous page ended. */
export class LeadsPageQueryDto extends LeadFiltersDto implements LeadsPageQuery {
  /** The `nextCursor` of the previous page, as issued (LeadsService checks it). */
  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
