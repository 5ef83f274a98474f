import { ageCopy, useLocale } from '../../lib/locale-context';
import { usePageMeta } from '../../lib/page-meta';
import { MosaicMark } from '../../lib/ui/MosaicMark';
import { StartOverLink } from '../../lib/ui/StartOverLink';

/** Screen 2: the visitor is not an adult user of nicotine or tobacco products. */
export default function ExitScreen() {
  const { t, minimumAge } = useLocale();
  usePageMeta(t('exit.title'));
  return (
    <section className="screen screen--centered exit">
      <MosaicMark columns={6} rows={6} seed={5} palette="stone" className="screen__emblem" />
      <h1 className="display">{t('exit.heading')}</h1>
      <p className="lead">{ageCopy(t, minimumAge, 'exit.body')}</p>
      <StartOverLink label={t('exit.back')} variant="ghost" />
    </section>
  );
}
