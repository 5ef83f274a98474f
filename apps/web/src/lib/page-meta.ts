import { useEffect } from 'react';
import { useLocale } from './locale-context';

/**
 * "<screen> | <experience name>" and the description (docs/product.md#page-titles-and-page-views), in the active
 * locale.
 */
export function usePageMeta(title: string): void {
  const { t } = useLocale();
  useEffect(() => {
    setPageMeta(`${title} | ${t('meta.titleSuffix')}`, t('meta.description'));
  }, [title, t]);
}

export function setPageMeta(title: string, description: string): void {
  document.title = title;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = description;
}

/** `lang` and `dir` on <html> follow the locale (docs/product.md#locales-and-markets). */
export function setDocumentLocale(tag: string, dir: 'ltr' | 'rtl'): void {
  document.documentElement.lang = tag;
  document.documentElement.dir = dir;
}
