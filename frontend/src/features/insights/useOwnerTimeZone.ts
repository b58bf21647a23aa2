import { useEffect, useState } from 'react';
import { userApi } from '../../api';

/** The zone this browser is set to, e.g. Europe/Paris. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The time zone Insights counts days and hours in (docs/product.md#analytics): the one the owner
 * saved in Settings, else the browser's. Null while the settings are read; the browser's when
 * they cannot be (the figures are still worth showing).
 */
export function useOwnerTimeZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    const settle = (saved: string | null | undefined) => {
      if (active) setZone(saved || browserTimeZone());
    };
    Promise.resolve()
      .then(() => userApi.getSettings())
      .then((settings) => settings.timeZone)
      .then(settle, () => settle(null));
    return () => {
      active = false;
    };
  }, []);
  return zone;
}
