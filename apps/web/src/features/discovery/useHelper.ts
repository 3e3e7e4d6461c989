import type {
  DiscoveryEvent,
  HelperConfigureRequest,
  HelperJobs,
  StreamConnectionInput,
} from '@homesitter/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, type Dispatch } from 'react';
import type { FlowAction } from './flow';
import { HELPER_ERROR_CODES } from '@homesitter/contract/runtime';
import { helper, isHelperError, isHelperGone } from './helperClient';
import { checkHelper, type HelperCheck } from './helperProblems';
import { phone } from './phone/phoneClient';
import { findsCamerasItself } from './phoneDiscovery';
import { fetchHelperConnected, fetchHelperDownloads } from './serverHelper';
import { useFlowScan } from './useFlowScan';

export const helperCheckKey = ['helper', 'check'] as const;
export const helperJobsKey = ['helper', 'jobs'] as const;
export const helperDownloadsKey = ['helper', 'downloads'] as const;

/** While the helper cannot be used, look again this often: starting it moves the screen on by itself. */
export const HELPER_RECHECK_MS = 3_000;
/** While the owner signs the helper in (another tab), its status is read this often. */
export const SIGN_IN_POLL_MS = 2_000;
/** A scan asked for while the previous one winds down is asked for again this often, this many times. */
const SCAN_BUSY_RETRY_MS = 500;
const SCAN_BUSY_RETRIES = 6;
/** `GET /jobs` while any camera is still being set up. */
export const JOBS_POLL_MS = 1_000;

/**
 * Whether the helper can be used, and why not. `withServer` (signed in only) asks the server too, which
 * tells a blocked helper from a missing one. `waitForSignIn` keeps reading `/status` until it is signed in.
 */
export function useHelperCheck({
  withServer,
  waitForSignIn = false,
}: {
  withServer: boolean;
  waitForSignIn?: boolean;
}) {
  return useQuery<HelperCheck>({
    queryKey: [...helperCheckKey, withServer],
    queryFn: () => checkHelper(helper, withServer ? { serverSaysConnected: fetchHelperConnected } : {}),
    retry: false,
    staleTime: 0,
    refetchInterval: (query) => {
      const check = query.state.data;
      if (!check) return false;
      if (!check.ready) return HELPER_RECHECK_MS;
      return waitForSignIn && !check.status.signed_in ? SIGN_IN_POLL_MS : false;
    },
  });
}

/** The helper builds this server offers (public; may be none). */
export function useHelperDownloads(enabled = true) {
  return useQuery({
    queryKey: helperDownloadsKey,
    queryFn: fetchHelperDownloads,
    enabled,
    retry: false,
    staleTime: 60 * 60 * 1000,
  });
}

/** The helper's configuration jobs, read every second while the `jobIds` are not all finished. */
export function useHelperJobs(jobIds: readonly string[]) {
  return useQuery<HelperJobs>({
    queryKey: helperJobsKey,
    queryFn: ({ signal }) => helper.jobs(signal),
    enabled: jobIds.length > 0,
    retry: false,
    staleTime: 0,
    refetchInterval: (query) => {
      const jobs = query.state.data?.jobs;
      if (query.state.status === 'error') return false;
      const settled =
        jobs &&
        jobIds.every((id) => {
          const job = jobs.find((j) => j.id === id);
          return !job || job.status === 'configured' || job.status === 'failed';
        });
      return settled ? false : JOBS_POLL_MS;
    },
  });
}

export function useConfigureCameras() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: HelperConfigureRequest) => helper.configure(request),
    onSuccess: (answer) => {
      queryClient.setQueryData<HelperJobs>(helperJobsKey, (current) => ({
        jobs: [
          ...(current?.jobs ?? []).filter((j) => !answer.jobs.some((a) => a.id === j.id)),
          ...answer.jobs,
        ],
      }));
    },
  });
}

export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; connection?: StreamConnectionInput }) =>
      helper.retryJob(input.id, input.connection),
    onSuccess: (_answer, input) => {
      queryClient.setQueryData<HelperJobs>(helperJobsKey, (current) =>
        current
          ? {
              jobs: current.jobs.map((j) =>
                j.id === input.id ? { ...j, status: 'pending', error_code: null, message: null } : j,
              ),
            }
          : current,
      );
      void queryClient.invalidateQueries({ queryKey: helperJobsKey });
    },
  });
}

/**
 * `POST /cameras/test`: one camera tried as configuration would, nothing sent to the server. The apps run
 * the same test on the phone itself.
 */
export function useTestCamera() {
  return useMutation({
    mutationFn: (connection: StreamConnectionInput) =>
      findsCamerasItself() ? phone.testCamera(connection) : helper.testCamera(connection),
  });
}

export function useSignOutHelper() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => helper.signOut(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: helperCheckKey }),
  });
}

/** `GET /discover`, asked again a few times while the helper answers busy. */
function helperScan(
  onEvent: (event: DiscoveryEvent) => void,
  signal: AbortSignal,
  left = SCAN_BUSY_RETRIES,
): Promise<void> {
  return helper.discover(onEvent, signal).catch(async (error: unknown) => {
    // The scan just stopped (Rescan) may still be winding down in the helper: it answers busy a moment.
    if (left > 0 && isHelperError(error) && error.code === HELPER_ERROR_CODES.busy) {
      await new Promise((resolve) => setTimeout(resolve, SCAN_BUSY_RETRY_MS));
      if (!signal.aborted) return helperScan(onEvent, signal, left - 1);
    }
    throw error;
  });
}

/**
 * One scan at a time: `start` (again) streams `GET /discover` into the flow, `stop` ends it keeping what
 * was found; leaving the screen stops it. A helper that stops answering reports `helperLost`.
 */
export function useDiscoveryScan(dispatch: Dispatch<FlowAction>) {
  const failed = useCallback(
    (error: unknown) => {
      if (isHelperGone(error)) dispatch({ type: 'helperLost' });
    },
    [dispatch],
  );
  return useFlowScan(dispatch, helperScan, failed);
}
