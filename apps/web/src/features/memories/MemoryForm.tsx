import type { Memory, MemoryBody } from '@homesitter/contract';
import { MEMORY_TEXT_MAX, type MemoryCategory } from '@homesitter/contract/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../shared/ui/Button';
import { inputClass, TextField } from '../../shared/ui/TextField';
import { useDefaultSiteUuid } from '../cameras/api';
import { CATEGORY_FIELDS, REQUIRED_FIELDS, type FieldName } from './categories';
import { useProfile } from '../user/profile';
import { expirationFromInput, tomorrowInput } from './expiry';
import { NewPhotosField } from './NewPhotosField';
import { PropertyChips } from './PropertyChips';

type Values = Record<FieldName | 'notes', string>;

function initialValues(memory?: Memory): Values {
  const m = (memory ?? {}) as Partial<Record<FieldName | 'notes', string | number | null>>;
  const value = (k: FieldName | 'notes') => (m[k] == null ? '' : String(m[k]));
  return {
    name: value('name'),
    owner: value('owner'),
    make: value('make'),
    model: value('model'),
    year: value('year'),
    color: value('color'),
    species: value('species'),
    text: value('text'),
    notes: value('notes'),
  };
}

/** The body to send: the category's fields, notes, properties and (new memories only) an expiry. */
function toBody(category: MemoryCategory, v: Values, sites: string[], until: string | null): MemoryBody {
  const body: Record<string, unknown> = { notes: v.notes.trim() || null, property_associations: sites };
  for (const f of CATEGORY_FIELDS[category]) {
    const raw = v[f].trim();
    if (f === 'year') body.year = raw ? Number(raw) : null;
    else if (REQUIRED_FIELDS.includes(f)) body[f] = raw;
    else body[f] = raw || null;
  }
  if (until !== null) body.expiration = expirationFromInput(until);
  return body;
}

/**
 * Create or edit a memory in place: the category's fields, notes and properties; a new memory also takes its
 * first photos and starts with the property a new camera would (the one just made, or the only one).
 */
export function MemoryForm(props: {
  category: MemoryCategory;
  memory?: Memory;
  busy: boolean;
  onSubmit: (body: MemoryBody, photos: File[]) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('memories');
  const { category, memory } = props;
  const [values, setValues] = useState<Values>(() => initialValues(memory));
  // Untouched (undefined) follows the default, known only once the properties have loaded.
  const [picked, setSites] = useState<string[] | undefined>(memory?.property_associations);
  const defaultSite = useDefaultSiteUuid();
  const sites = picked ?? (defaultSite ? [defaultSite] : []);
  const [photos, setPhotos] = useState<File[]>([]);
  const [shortTerm, setShortTerm] = useState(false);
  const timeZone = useProfile().data?.timezone;
  const [until, setUntil] = useState(() => tomorrowInput(new Date(), timeZone));
  const set = (k: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [k]: e.target.value }));

  const missing = CATEGORY_FIELDS[category].some((f) => REQUIRED_FIELDS.includes(f) && !values[f].trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (missing) return;
    props.onSubmit(toBody(category, values, sites, !memory && shortTerm ? until : null), photos);
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {CATEGORY_FIELDS[category].map((f) =>
        f === 'text' ? (
          <div key={f} className="flex flex-col gap-1.5">
            <label htmlFor="memory-text" className="text-sm font-medium text-slate-200">
              {t('fields.text')}
            </label>
            <textarea
              id="memory-text"
              required
              maxLength={MEMORY_TEXT_MAX}
              rows={4}
              value={values.text}
              onChange={set('text')}
              className={`${inputClass} h-auto py-2`}
            />
          </div>
        ) : (
          <TextField
            key={f}
            label={t(`fields.${f}`)}
            value={values[f]}
            onChange={set(f)}
            required={REQUIRED_FIELDS.includes(f)}
            inputMode={f === 'year' ? 'numeric' : undefined}
            maxLength={f === 'year' ? 4 : 100}
          />
        ),
      )}
      <div className="flex flex-col gap-1.5">
        <label htmlFor="memory-notes" className="text-sm font-medium text-slate-200">
          {t('fields.notes')}
        </label>
        <textarea
          id="memory-notes"
          rows={3}
          maxLength={MEMORY_TEXT_MAX}
          value={values.notes}
          onChange={set('notes')}
          className={`${inputClass} h-auto py-2`}
        />
      </div>
      <PropertyChips selected={sites} onChange={setSites} />
      {memory ? null : <NewPhotosField files={photos} onChange={setPhotos} />}
      {!memory && category === 'people' ? (
        <p className="text-sm text-slate-400" data-testid="recognition-note">
          {t('recognitionNote')}
        </p>
      ) : null}
      {memory ? null : (
        <div className="flex flex-col gap-2">
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input
              type="checkbox"
              checked={shortTerm}
              onChange={(e) => setShortTerm(e.target.checked)}
              className="size-4 accent-brand-500"
            />
            {t('shortTerm')}
          </label>
          {shortTerm ? (
            <TextField
              type="datetime-local"
              label={t('keepUntil')}
              value={until}
              onChange={(e) => setUntil(e.target.value)}
            />
          ) : null}
        </div>
      )}
      <div className="flex justify-end gap-3">
        {props.onCancel ? (
          <Button variant="secondary" onClick={props.onCancel} disabled={props.busy}>
            {t('cancel')}
          </Button>
        ) : null}
        <Button type="submit" busy={props.busy} disabled={missing}>
          {memory ? t('save') : t('create')}
        </Button>
      </div>
    </form>
  );
}
