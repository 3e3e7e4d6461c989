import type { CameraConnectionInput } from '@homesitter/contract';
import { ChevronRight, House, Radar, Radio, Upload } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isNativeApp } from '../../shared/lib/native';
import { Alert } from '../../shared/ui/Alert';
import { Card } from '../../shared/ui/Card';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { cn } from '../../shared/ui/cn';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { ConfigurationProgress } from './add/ConfigurationProgress';
import { StreamCameraEdit } from './add/StreamCameraEdit';
import { StreamCameraForm, type StreamDraft } from './add/StreamCameraForm';
import { checkStreamForm, emptyStreamForm, formFromSummary } from './add/streamConnection';
import { UploadCameraForm } from './add/UploadCameraForm';
import { NestChoice } from './nest/NestChoice';
import { useCameraDetail } from './api';
import { useCamerasRealtime } from './useCamerasRealtime';

type Kind = 'upload' | 'stream' | 'nest';
const KINDS: readonly Kind[] = ['upload', 'stream', 'nest'];
const KIND_ICONS = { upload: Upload, stream: Radio, nest: House } as const;

/**
 * The ways a camera joins: it uploads its events, Homesitter pulls its RTSP / ONVIF stream, or it is a
 * Google Nest camera of the owner's linked Google account.
 */
function KindChoice({ value, onChange }: { value: Kind; onChange: (kind: Kind) => void }) {
  const { t } = useTranslation('cameras');
  return (
    <fieldset className="mb-4">
      <legend className="sr-only">{t('add.kindLabel')}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {KINDS.map((kind) => {
          const Icon = KIND_ICONS[kind];
          return (
            <label
              key={kind}
              className={cn(
                'flex cursor-pointer gap-3 rounded-xl p-4 ring-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-400',
                value === kind
                  ? 'bg-slate-800 ring-brand-500'
                  : 'bg-slate-900 ring-slate-700 hover:bg-slate-800',
              )}
            >
              <input
                type="radio"
                name="camera-kind"
                value={kind}
                checked={value === kind}
                onChange={() => onChange(kind)}
                className="sr-only"
              />
              <Icon className="mt-0.5 size-5 shrink-0 text-brand-400" aria-hidden="true" />
              <span className="flex flex-col gap-1">
                <span className="font-medium text-white">{t(`add.kinds.${kind}`)}</span>
                <span className="text-sm text-slate-400">{t(`add.kindHints.${kind}`)}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The quickest way in: the desktop helper finds the cameras on the home network and sets them up. */
function FindOnNetwork() {
  const { t } = useTranslation('cameras');
  return (
    <Link
      to="/cameras/add/network"
      className="mb-4 flex items-center gap-4 rounded-xl bg-brand-500/10 p-4 ring-1 ring-brand-500 hover:bg-brand-500/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
    >
      <Radar className="size-7 shrink-0 text-brand-400" aria-hidden="true" />
      <span className="flex flex-1 flex-col gap-1">
        <span className="font-semibold text-white">{t('add.network.title')}</span>
        <span className="text-sm text-slate-300">
          {/* The apps scan with the phone itself (docs/mobile.md "Camera discovery"). */}
          {t(isNativeApp() ? 'add.network.textPhone' : 'add.network.text')}
        </span>
      </span>
      <ChevronRight className="size-5 shrink-0 text-slate-300" aria-hidden="true" />
    </Link>
  );
}

/** Following a stream camera's configuration; "Edit" shows the details entered. */
function StreamCameraFollow({
  name,
  draft,
  sent,
  editing,
  onEdit,
  onEditDone,
}: {
  name: string;
  draft: StreamDraft | null;
  sent: CameraConnectionInput | null;
  editing: boolean;
  onEdit: () => void;
  onEditDone: () => void;
}) {
  const { t } = useTranslation('cameras');
  const camera = useCameraDetail(name, { followConfiguration: true });
  if (!camera.data) {
    return camera.isError ? <Alert>{t('add.stream.loadFailed')}</Alert> : <PageSpinner />;
  }
  // After a reload only the server's summary is left (never the password).
  const mine = draft?.name.trim().toLowerCase() === name.toLowerCase();
  const initial = mine && draft ? draft.values : formFromSummary(camera.data.connection);
  if (editing) {
    return (
      <StreamCameraEdit
        cameraName={camera.data.name}
        initial={initial}
        sent={sent ?? checkStreamForm(initial).connection}
        onDone={onEditDone}
        onCancel={onEditDone}
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-white">{camera.data.name}</h2>
      <ConfigurationProgress camera={camera.data} onEdit={onEdit} />
    </div>
  );
}

/**
 * docs/product.md §2 cameras/add. An upload camera needs a name (and its uploads pointed at us in camera setup); an
 * RTSP or ONVIF camera also needs its address and login, then configures itself while the screen follows
 * it (`?camera=`), with "Try again" and "Edit" when it fails.
 */
export default function AddCameraPage() {
  const { t } = useTranslation('cameras');
  const [search, setSearch] = useSearchParams();
  const type = search.get('type');
  const kind: Kind = type === 'stream' || type === 'nest' ? type : 'upload';
  const following = search.get('camera');
  const editing = search.get('edit') === '1';
  const [draft, setDraft] = useState<StreamDraft>({
    name: '',
    siteUuid: undefined,
    values: emptyStreamForm,
  });
  const [sent, setSent] = useState<CameraConnectionInput | null>(null);
  useCamerasRealtime();

  const follow = (camera: string, edit = false) =>
    setSearch({ type: 'stream', camera, ...(edit ? { edit: '1' } : {}) }, { replace: true });

  return (
    <div className={pageClass}>
      <SettingsHeader title={t('add.title')} back="/cameras" />
      {following ? (
        <Card>
          <StreamCameraFollow
            name={following}
            draft={draft}
            sent={sent}
            editing={editing}
            onEdit={() => follow(following, true)}
            onEditDone={() => follow(following)}
          />
        </Card>
      ) : (
        <>
          <FindOnNetwork />
          <p className="mb-3 text-sm text-slate-400">{t('add.network.orManually')}</p>
          <KindChoice
            value={kind}
            onChange={(next) => setSearch(next === 'upload' ? {} : { type: next }, { replace: true })}
          />
          <Card>
            {kind === 'upload' ? <UploadCameraForm /> : null}
            {kind === 'nest' ? <NestChoice /> : null}
            {kind === 'stream' ? (
              <StreamCameraForm
                draft={draft}
                onDraftChange={setDraft}
                onAdded={(camera, connection) => {
                  setSent(connection);
                  follow(camera.name);
                }}
              />
            ) : null}
          </Card>
        </>
      )}
    </div>
  );
}
