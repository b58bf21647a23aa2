import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, GATED, ID_IN_PATH, JSON_BODY, SAME_SITE } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Body, Controller, Delete, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { CreateCategoryDto, type CategoryResponse } from './categories.dto.js';
import { CategoriesService } from './categories.service.js';

@ApiTags('Categories')
@ApiCookieAuth(SECURITY.session)
@Controller('categories')
@UseGuards(BillingStateGuard)
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @ApiOperation({ summary: "The owner's categories" })
  @ApiAnswer(200, 'The categories.')
  @ApiErrors(GATED)
  async list(@CurrentUser() user: SessionUser): Promise<{ categories: CategoryResponse[] }> {
    return { categories: await this.categories.list(user.id) };
  }

  @Post()
  @ApiOperation({ summary: 'Creates a category' })
  @ApiAnswer(201, 'The category.')
  @ApiErrors(GATED, SAME_SITE, JSON_BODY, { 409: ['CATEGORY_EXISTS'] })
  async create(
    @CurrentUser() user: SessionUser,
    @Body() body: CreateCategoryDto,
  ): Promise<{ message: string; category: CategoryResponse }> {
    const category = await this.categories.create(user.id, body.name);
    return { message: 'Category created successfully!', category };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a category (its bots become uncategorised)' })
  @ApiAnswer(200, 'Deleted.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, { 404: ['CATEGORY_NOT_FOUND'] })
  @HttpCode(200)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ message: string }> {
    await this.categories.delete(user.id, id);
    return { message: 'Category deleted successfully!' };
  }
}
