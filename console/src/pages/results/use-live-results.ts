import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Results } from '../poll-public/types.ts';
import { voterFingerprint } from '../poll-public/voter.ts';
import { resultsKey } from './use-results.ts';

/** The live stream's state, as the page tells the reader. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'deleted';

/** Waits before opening a new stream after the browser gave up on one (ms): 2 s, doubling, at most 30 s. */
const retryDelay = (failures: number) => Math.min(30_000, 2_000 * 2 ** failures);

/**
 * Follows `GET /api/polls/{poll_id}/results/stream` (docs/polls.md, "Live results"): each
 * `results` event carries the complete results object and replaces the cached results, so no
 * reload is needed; `deleted` ends it. EventSource reconnects by itself after a drop (the
 * service asks for 3 s with `retry:`) and the service sends the current results at once on each
 * connection, so a missed event is never needed again — which is why the stream needs no `id:`
 * lines and no `Last-Event-ID`. Not opened while `enabled` is false (an unknown poll). When the browser gives up (an HTTP error such as 429
 * `too_many_streams` closes an EventSource for good), a new one is opened after a growing wait.
 */
export function useLiveResults(pollId: string, enabled = true): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    const url = `/api/polls/${encodeURIComponent(pollId)}/results/stream?voter_fingerprint=${encodeURIComponent(voterFingerprint())}`;
    const open = () => {
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => setState('live');
      source.addEventListener('results', (event) => {
        failures = 0;
        setState('live');
        client.setQueryData(resultsKey(pollId), JSON.parse((event as MessageEvent<string>).data) as Results);
      });
      source.addEventListener('deleted', () => {
        stopped = true;
        source?.close();
        setState('deleted');
      });
      source.onerror = () => {
        if (stopped) return;
        setState('reconnecting');
        if (source?.readyState !== EventSource.CLOSED) return; // the browser retries by itself
        timer = setTimeout(open, retryDelay(failures++));
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [client, pollId, enabled]);
  return state;
}
