import type { DiscoveredDevice } from '@homesitter/contract';
import { CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import { useEffect, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/TextField';
import { useCameras, useSites } from '../../cameras/api';
import { cameraNameProblem } from '../../cameras/cameraName';
import { SiteSelect } from '../../cameras/SiteSelect';
import { connectionFor, selectedDevices, type FlowAction, type FlowState, type Submitted } from '../flow';
import { DeviceFacts } from './DeviceFacts';

/**
 * The names of the cameras chosen in step 4, the helper's and the phone's alike: prefilled from what each
 * announces once the account's cameras are known (so they avoid those names; without that list, because it
 * failed, they avoid each other only), and checked like every camera name.
 */
export function useSummaryNames(state: FlowState, dispatch: Dispatch<FlowAction>) {
  const cameras = useCameras();
  const devices = selectedDevices(state);
  const existing = (cameras.data ?? []).map((c) => c.name);
  const existingKey = existing.join('\n');
  const camerasKnown = cameras.data !== undefined || cameras.isError;
  useEffect(() => {
    if (camerasKnown)
      dispatch({ type: 'prepareNames', existing: existingKey ? existingKey.split('\n') : [] });
  }, [camerasKnown, existingKey, dispatch]);

  const nameOf = (id: string) => (state.names[id] ?? '').trim();
  const problemOf = (id: string) =>
    cameraNameProblem(state.names[id] ?? '', [
      ...existing,
      ...devices.filter((d) => d.id !== id).map((d) => nameOf(d.id)),
    ]);
  return {
    devices,
    /** Every camera has its first name (shown as a spinner until then). */
    ready: devices.every((device) => state.names[device.id] !== undefined),
    /** The name as it is sent: trimmed. */
    nameOf,
    problemOf,
    /**
     * Each camera with the connection it is added by, or null when a name is wrong or a camera has no
     * connection yet (the fields then say what is wrong).
     */
    chosen(): { device: DiscoveredDevice; name: string; connection: Submitted['connection'] }[] | null {
      const list = devices.map((device) => ({
        device,
        name: nameOf(device.id),
        connection: connectionFor(state, device).connection,
      }));
      if (devices.some((d) => problemOf(d.id))) return null;
      if (list.some((c) => !c.connection)) return null;
      return list.map((c) => ({ ...c, connection: c.connection! }));
    },
  };
}
export type SummaryNames = ReturnType<typeof useSummaryNames>;

/**
 * Step 4's form: the title, a name field per camera with what is known of it, and the property. A name's
 * problem shows once its field was edited, or after a try to go on (`tried`).
 */
export function SummaryNamesForm({
  state,
  dispatch,
  names,
  intro,
  tried,
}: {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
  names: SummaryNames;
  intro: string;
  tried: boolean;
}) {
  const { t } = useTranslation('discovery');
  const { t: tc } = useTranslation('cameras');
  const sites = useSites();
  const [touched, setTouched] = useState<string[]>([]);
  return (
    <>
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-white">{t('summary.title')}</h2>
        <p className="text-sm text-slate-300">{intro}</p>
      </div>
      <ul className="flex flex-col gap-3" aria-label={t('summary.listLabel')}>
        {names.devices.map((device) => {
          const problem = names.problemOf(device.id);
          const show = tried || touched.includes(device.id);
          return (
            <li
              key={device.id}
              data-testid="summary-camera"
              data-address={device.address}
              className="flex flex-col gap-2 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800"
            >
              <TextField
                label={t('summary.nameLabel', { address: device.address })}
                value={state.names[device.id] ?? ''}
                maxLength={CAMERA_NAME_MAX + 1}
                autoComplete="off"
                onChange={(e) => {
                  dispatch({ type: 'setName', id: device.id, name: e.target.value });
                  setTouched((ids) => (ids.includes(device.id) ? ids : [...ids, device.id]));
                }}
                error={show && problem ? tc(`nameErrors.${problem}`) : null}
              />
              <DeviceFacts device={device} state={state} />
            </li>
          );
        })}
      </ul>
      <SiteSelect
        sites={sites.data ?? []}
        value={state.siteUuid}
        onChange={(siteUuid) => dispatch({ type: 'setSite', siteUuid })}
      />
    </>
  );
}
