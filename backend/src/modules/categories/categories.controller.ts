import { Body, Controller, Delete, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../../common/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { CreateCategoryDto, type CategoryResponse } from './categories.dto.js';
import { CategoriesService } from './categories.service.js';

@Controller('categories')
@UseGuards(BillingStateGuard)
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  async list(@CurrentUser() user: SessionUser): Promise<{ categories: CategoryResponse[] }> {
    return { categories: await this.categories.list(user.id) };
  }

  @Post()
  async create(
    @CurrentUser() user: SessionUser,
    @Body() body: CreateCategoryDto,
  ): Promise<{ message: string; category: CategoryResponse }> {
    const category = await this.categories.create(user.id, body.name);
    return { message: 'Category created successfully!', category };
  }

  @Delete(':id')
  @HttpCode(200)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ message: string }> {
    await this.categories.delete(user.id, id);
    return { message: 'Category deleted successfully!' };
  }
}
