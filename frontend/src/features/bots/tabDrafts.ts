import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type SetStateAction,
} from 'react';

/** The tabs whose unsaved edits the edit-bot dialog keeps (docs/product.md#edit-bot-modal). */
export type DraftTab = 'details' | 'styling' | 'prompting' | 'leads' | 'usage';

interface Draft {
  value: unknown;
  /** Differs from what the bot has saved. */
  dirty: boolean;
}

type Drafts = Partial<Record<DraftTab, Draft>>;

interface DraftStore {
  drafts: Drafts;
  setDrafts: (update: (drafts: Drafts) => Drafts) => void;
}

const DraftContext = createContext<DraftStore | null>(null);
export const DraftProvider = DraftContext.Provider;

/** The dialog's one state for every tab's unsaved edits: kept while the owner switches tabs. */
export function useDraftStore(): DraftStore & { dirtyTabs: DraftTab[]; clear: () => void } {
  const [drafts, setDrafts] = useState<Drafts>({});
  const clear = useCallback(() => setDrafts({}), []);
  const dirtyTabs = (Object.keys(drafts) as DraftTab[]).filter((tab) => drafts[tab]?.dirty);
  return { drafts, setDrafts, dirtyTabs, clear };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A form equal to the saved bot is no draft: the tab shows the bot as saved. */
function withDraft(all: Drafts, tab: DraftTab, value: unknown, saved: unknown): Drafts {
  if (!same(value, saved)) return { ...all, [tab]: { value, dirty: true } };
  if (!(tab in all)) return all;
  const rest = { ...all };
  delete rest[tab];
  return rest;
}

/**
 * A tab's form, kept by the dialog (not the tab) so that it survives the tab being closed: like
 * `useState(saved)`, where `saved` is the form as the bot has it now. The tab counts as changed
 * while its form differs from `saved`; once saved (the bot then equals the form) it is clean again.
 * Outside the dialog (a tab rendered alone) it is a plain state.
 */
export function useTabDraft<T>(tab: DraftTab, saved: T): [T, (update: SetStateAction<T>) => void] {
  const store = useContext(DraftContext);
  const [local, setLocal] = useState(saved);
  const savedRef = useRef(saved);
  useLayoutEffect(() => {
    savedRef.current = saved;
  });
  const savedKey = JSON.stringify(saved);

  const setDrafts = store?.setDrafts;
  const draft = store?.drafts[tab];
  const set = useCallback(
    (update: SetStateAction<T>) => {
      if (!setDrafts) return setLocal(update);
      setDrafts((all) => {
        const current = (all[tab]?.value ?? savedRef.current) as T;
        const next = typeof update === 'function' ? (update as (value: T) => T)(current) : update;
        return withDraft(all, tab, next, savedRef.current);
      });
    },
    [setDrafts, tab],
  );

  // The bot was saved (here or by another tab): the form may now equal it, or differ in new ways.
  useEffect(() => {
    setDrafts?.((all) => {
      const kept = all[tab];
      return kept && same(kept.value, savedRef.current) ? withDraft(all, tab, kept.value, savedRef.current) : all;
    });
  }, [setDrafts, tab, savedKey]);

  if (!store) return [local, set];
  return [(draft?.value ?? saved) as T, set];
}
