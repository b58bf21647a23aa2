import type { PublicBot } from '@botsmith/contract';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ID_IN_PATH } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { IdParam } from '../../common/parse-id.pipe.js';
import { Public } from '../../common/public.decorator.js';
import { WidgetService } from './widget.service.js';

@ApiTags('Widget and chat')
@Controller('widget')
export class WidgetController {
  constructor(private readonly widget: WidgetService) {}

  /** The bot's public face, cacheable for 30 s (a budget that runs out hides the bot within that). */
  @Public()
  @Get('bots/:id')
  @ApiOperation({ summary: "A bot's public face for the widget (cacheable 30 s); never its prompt, key or owner" })
  @ApiAnswer(200, 'The bot: id, name, customGreeting, model, modelLabel, hidden and the styling fields.')
  @ApiErrors(ID_IN_PATH, { 404: ['BOT_NOT_FOUND'] })
  async bot(@IdParam('id') id: number, @Res({ passthrough: true }) res: Response): Promise<{ bot: PublicBot }> {
    const body = await this.widget.publicBot(id);
    res.setHeader('Cache-Control', 'public, max-age=30');
    return body;
  }
}
