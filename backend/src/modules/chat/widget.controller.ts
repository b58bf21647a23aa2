import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { IdParam } from '../../common/parse-id.pipe.js';
import { Public } from '../../common/public.decorator.js';
import { WidgetService, type PublicBot } from './widget.service.js';

@Controller('widget')
export class WidgetController {
  constructor(private readonly widget: WidgetService) {}

  /** The bot's public face, cacheable for 30 s (a budget that runs out hides the bot within that). */
  @Public()
  @Get('bots/:id')
  async bot(@IdParam('id') id: number, @Res({ passthrough: true }) res: Response): Promise<{ bot: PublicBot }> {
    const body = await this.widget.publicBot(id);
    res.setHeader('Cache-Control', 'public, max-age=30');
    return body;
  }
}
