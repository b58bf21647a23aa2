import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { LEAD_LIMITS, type ResendConfirmationRequest } from '@botsmith/contract';

/** POST /api/bots/{id}/notify-emails/resend. */
export class ResendConfirmationDto implements ResendConfirmationRequest {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString({ message: 'email must be text' })
  @MaxLength(LEAD_LIMITS.email)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  email!: string;
}
