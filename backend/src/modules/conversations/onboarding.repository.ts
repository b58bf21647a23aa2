import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { OnboardingState } from '@botsmith/contract';

/**
 * The dashboard's "Next steps" (docs/product.md#next-steps), read from what the account already
 * records: three EXISTS, each scoped to the owner, so another account's rows never count.
 */
@Injectable()
export class OnboardingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `ownOrigin`: Botsmith's own origin (PUBLIC_URL); a page there is the dashboard's preview, not the owner's site. */
  async stateOf(ownerId: number, ownOrigin: string): Promise<OnboardingState> {
    const rows: Array<{ has_knowledge: boolean; has_conversation: boolean; on_site: boolean }> =
      await this.dataSource.query(
        `SELECT
           EXISTS (SELECT 1 FROM bot_sources s JOIN bots b ON b.id = s.bot_id
                    WHERE b.owner_id = $1 AND s.status <> 'failed' AND NOT s.is_correction) AS has_knowledge,
           EXISTS (SELECT 1 FROM conversations c WHERE c.owner_id = $1) AS has_conversation,
           EXISTS (SELECT 1 FROM conversations c
                    WHERE c.owner_id = $1 AND c.page_url IS NOT NULL
                      AND c.page_url <> $2::text AND left(c.page_url, length($2::text) + 1) <> $2::text || '/') AS on_site`,
        [ownerId, ownOrigin],
      );
    const row = rows[0];
    return {
      hasKnowledge: row?.has_knowledge === true,
      hasConversation: row?.has_conversation === true,
      onSite: row?.on_site === true,
    };
  }
}
