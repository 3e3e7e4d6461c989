import { Bell, Eye, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';

const ICONS = [Eye, Bell, Sparkles];

/** What Homesitter does, for a visitor about to sign up (the root path leads a signed-out visitor here). */
export function ProductPitch() {
  const { t } = useTranslation();
  const points = t('auth.pitch.points', { returnObjects: true }) as unknown;
  return (
    <section aria-labelledby="product-pitch" className="mb-6 px-1">
      <h2 id="product-pitch" className="text-xl font-semibold tracking-tight text-white">
        {t('auth.pitch.title')}
      </h2>
      <ul className="mt-3 flex flex-col gap-2.5 text-sm text-slate-300">
        {(Array.isArray(points) ? (points as string[]) : []).map((point, i) => {
          const Icon = ICONS[i % ICONS.length]!;
          return (
            <li key={point} className="flex gap-2.5">
              <Icon className="mt-0.5 size-4 shrink-0 text-brand-400" aria-hidden="true" />
              <span>{point}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
