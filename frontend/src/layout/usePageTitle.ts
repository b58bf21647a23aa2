import { useEffect } from 'react';
import { PRODUCT_NAME } from './brand';

/** Sets the browser tab title for the current page: "<page> · Botsmith". */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = title
      ? `${title} · ${PRODUCT_NAME}`
      : `${PRODUCT_NAME} — Build smarter AI chatbots, no code needed`;
  }, [title]);
}
