import { OWNER_REPLY_LIMITS, type OwnerReplyRequest } from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const MAX = OWNER_REPLY_LIMITS.contentMaxChars;

/**
 * POST /api/conversations/{id}/reply. Typed by the owner for this purpose, so text that cannot be
 * stored (NUL, a lone surrogate) is refused by the validation pipe rather than altered.
 */
export class OwnerReplyDto implements OwnerReplyRequest {
  // class-validator checks the rules bottom up: the type first, then emptiness, then the length.
  @Transform(trim)
  @MaxLength(MAX, { message: `Your reply can be at most ${MAX.toLocaleString('en-US')} characters.` })
  @IsNotEmpty({ message: 'Write your reply in "content".' })
  @IsString({ message: 'Write your reply in "content".' })
  content!: string;
}
