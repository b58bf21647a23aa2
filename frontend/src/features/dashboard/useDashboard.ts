import { useCallback, useMemo, useState } from 'react';
import { botsApi, categoriesApi } from '../../api';
import { destinationForError } from '../../api/billingGate';
import type { BotResponse, BotSummary, CategoryResponse } from '../../api/types';
import { useApiResource } from '../../hooks/useApiResource';
import type { CategoryFilter } from './DashboardSidebar';

const loadBots = () => botsApi.list().then(({ bots }) => bots);

/** A category list that fails to load shows none: the bot grid carries the error and its Retry. */
const loadCategories = () =>
  categoriesApi.list().then(
    ({ categories }) => categories,
    (error: unknown) => {
      if (destinationForError(error)) throw error;
      return [] as CategoryResponse[];
    },
  );

export interface DashboardData {
  /** The owner's bots; null while loading or after a failure. */
  bots: BotResponse[] | null;
  botsStatus: 'loading' | 'ready' | 'error';
  /** The owner's categories; null while loading. */
  categories: CategoryResponse[] | null;
  /** Bots per category id, and 'all'. */
  counts: Map<CategoryFilter, number>;
  selected: CategoryFilter;
  /** The open category, null for All Bots. */
  selectedCategory: CategoryResponse | null;
  /** The bots of the open category (all of them for All Bots); null until loaded. */
  visible: BotResponse[] | null;
  select: (filter: CategoryFilter) => void;
  /** Loads the bots and the categories again. */
  reload: () => void;
  botCreated: (created: BotSummary) => Promise<void>;
  botChanged: (bot: BotResponse) => void;
  botDeleted: (botId: number) => void;
  categoryAdded: (category: CategoryResponse) => void;
  categoryDeleted: (category: CategoryResponse) => void;
}

/** The dashboard's data: the owner's bots and categories, the category filter, and their changes. */
export function useDashboard(): DashboardData {
  const botsResource = useApiResource(loadBots);
  const categoriesResource = useApiResource(loadCategories);
  const [selected, setSelected] = useState<CategoryFilter>('all');
  const { update: updateBots, reload: reloadBots } = botsResource;
  const { update: updateCategories, reload: reloadCategories } = categoriesResource;

  const bots = botsResource.status === 'ready' ? botsResource.data : null;
  const categories = categoriesResource.status === 'ready' ? categoriesResource.data : null;
  const counts = useMemo(() => {
    const map = new Map<CategoryFilter, number>([['all', bots?.length ?? 0]]);
    for (const bot of bots ?? []) {
      if (bot.categoryId !== null) map.set(bot.categoryId, (map.get(bot.categoryId) ?? 0) + 1);
    }
    return map;
  }, [bots]);
  const selectedCategory = selected === 'all' ? null : (categories?.find((c) => c.id === selected) ?? null);
  const visible = bots && (selected === 'all' ? bots : bots.filter((bot) => bot.categoryId === selected));

  const reload = useCallback(() => {
    reloadBots();
    reloadCategories();
  }, [reloadBots, reloadCategories]);

  const botCreated = async (created: BotSummary) => {
    let added: BotResponse;
    try {
      // A bot created while a category is open goes into it, so it appears where the owner is.
      added = selectedCategory
        ? (await botsApi.update(created.id, { categoryId: selectedCategory.id })).bot
        : (await botsApi.get(created.id)).bot;
    } catch {
      reload();
      return;
    }
    updateBots((current) => [...current, added]);
  };

  const botChanged = useCallback(
    (bot: BotResponse) => updateBots((current) => current.map((b) => (b.id === bot.id ? { ...b, ...bot } : b))),
    [updateBots],
  );

  const botDeleted = useCallback(
    (botId: number) => updateBots((current) => current.filter((b) => b.id !== botId)),
    [updateBots],
  );

  const categoryAdded = (category: CategoryResponse) => updateCategories((current) => [...current, category]);

  const categoryDeleted = (category: CategoryResponse) => {
    updateCategories((current) => current.filter((c) => c.id !== category.id));
    updateBots((current) => current.map((b) => (b.categoryId === category.id ? { ...b, categoryId: null } : b)));
    if (selected === category.id) setSelected('all');
  };

  return {
    bots,
    botsStatus: botsResource.status,
    categories,
    counts,
    selected,
    selectedCategory,
    visible,
    select: setSelected,
    reload,
    botCreated,
    botChanged,
    botDeleted,
    categoryAdded,
    categoryDeleted,
  };
}
