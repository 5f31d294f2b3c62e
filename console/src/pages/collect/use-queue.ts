import { useCallback, useEffect, useRef, useState } from 'react';
import { useOnline } from '../../components/use-online.ts';
import type { ApiError } from '../../api/problem.ts';
import { deleteQueueItem, putQueueItem, queueOf, type QueueItem } from './offline-store.ts';
import { sendBySync, sendOneByOne } from './send-queue.ts';

/**
 * The project's queue of submissions in this browser, and sending it: on load, whenever the
 * network comes back, after each new submission, and on demand. Signed-in collectors send
 * through `/sync`; anonymous ones (public projects) one by one. `stoppedBy` says why the last
 * send stopped early (no network, signed out); the items stay pending.
 */
export function useQueue(projectId: number, signedIn: boolean) {
  const [items, setItems] = useState<QueueItem[]>([]);
  const [sending, setSending] = useState(false);
  const [stoppedBy, setStoppedBy] = useState<ApiError | undefined>();
  const busy = useRef(false);
  const online = useOnline();
  const reload = useCallback(async () => setItems(await queueOf(projectId)), [projectId]);

  const send = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setSending(true);
    try {
      const pending = (await queueOf(projectId)).filter((i) => i.status === 'pending');
      if (pending.length) {
        const report = signedIn ? await sendBySync(pending) : await sendOneByOne(pending);
        setStoppedBy(report.stoppedBy);
      } else setStoppedBy(undefined);
    } finally {
      busy.current = false;
      setSending(false);
      await reload();
    }
  }, [projectId, signedIn, reload]);

  useEffect(() => {
    // Load the queue, then send what is pending whenever the network is (back).
    const run = async () => {
      if (online) return send();
      const loaded = await queueOf(projectId);
      setItems(loaded);
    };
    void run();
  }, [online, send, projectId]);

  const add = useCallback(
    async (item: QueueItem) => {
      await putQueueItem(item);
      await reload();
      if (navigator.onLine) await send();
    },
    [reload, send],
  );
  const remove = useCallback(
    async (localId: string) => {
      await deleteQueueItem(localId);
      await reload();
    },
    [reload],
  );
  return { items, sending, stoppedBy, online, send, add, remove };
}
