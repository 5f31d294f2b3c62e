import { useQuery } from '@tanstack/react-query';
import { call, eventsApi } from '../../api/client.ts';
import type { components } from '../../api/generated/events.ts';

export type Attendance = components['schemas']['Attendance'];

/** How often the attendance page asks again (issue #18: no slower than every 2 s). */
const ATTENDANCE_POLL_MS = 2000;

/** The event's live attendance (`GET .../attendance`), polled every 2 s while the page is open. */
export const useAttendance = (eventId: string) =>
  useQuery({
    queryKey: ['events', 'attendance', eventId],
    queryFn: () =>
      call(eventsApi.GET('/api/events/{event_id}/attendance', { params: { path: { event_id: eventId } } })),
    refetchInterval: ATTENDANCE_POLL_MS,
    refetchIntervalInBackground: false,
  });
