import { Link } from 'wouter';
import { ageCopy, useLocale } from '../../lib/locale-context';
import { usePageMeta } from '../../lib/page-meta';
import { MosaicMark } from '../../lib/ui/MosaicMark';

/** Screen 2: the visitor is not an adult user of nicotine or tobacco products. */
export default function ExitScreen() {
  const { t, minimumAge, path } = useLocale();
  usePageMeta(t('exit.title'));
  return (
    <section className="screen screen--centered exit">
      <MosaicMark columns={6} rows={6} seed={5} palette="stone" className="screen__emblem" />
      <h1 className="display">{t('exit.heading')}</h1>
      <p className="lead">{ageCopy(t, minimumAge, 'exit.body')}</p>
      <div className="actions">
        <Link className="button button--ghost" to={path('start')}>
          {t('exit.back')}
        </Link>
      </div>
    </section>
  );
}
