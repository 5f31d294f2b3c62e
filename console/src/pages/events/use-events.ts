import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, eventsApi } from '../../api/client.ts';
import type { components } from '../../api/generated/events.ts';

export type EventSummary = components['schemas']['EventSummary'];
export type EventDetail = components['schemas']['Event'];
export type EventInput = components['schemas']['EventInput'];
export type EventPatch = components['schemas']['EventPatch'];
export type Device = components['schemas']['Device'];
export type NewDevice = components['schemas']['NewDevice'];

/** Which events the list shows (`GET /api/events?when=`). */
export type EventsWhen = 'upcoming' | 'past' | 'all';

const EVENTS = ['events'] as const;

/** Query keys of area C: every change under `events` refreshes what it touches. */
const eventKeys = {
  list: (when: EventsWhen) => [...EVENTS, 'list', when] as const,
  one: (eventId: string) => [...EVENTS, 'one', eventId] as const,
  devices: (eventId: string) => [...EVENTS, 'devices', eventId] as const,
};

/** The caller's events (owner or staff), by start date: `GET /api/events?when=`. */
export const useEvents = (when: EventsWhen) =>
  useQuery({
    queryKey: eventKeys.list(when),
    queryFn: () => call(eventsApi.GET('/api/events', { params: { query: { when } } })),
    placeholderData: (previous) => previous,
  });

/**
 * The caller's role and permissions in each event they own or staff (`GET /api/events/access`),
 * so each role is offered only what it may do (docs/events.md, "Who may do what"). `canManage`:
 * owner (edit, delete, staff, devices, invites, webhooks); `canScan`: owner and staff.
 */
export function useEventAccess() {
  const access = useQuery({
    queryKey: [...EVENTS, 'access'] as const,
    queryFn: () => call(eventsApi.GET('/api/events/access')),
  });
  const byEvent = new Map((access.data?.events ?? []).map((e) => [e.event_id, e.permissions as string[]]));
  return {
    access,
    canManage: (eventId: string) => byEvent.get(eventId)?.includes('event.manage') ?? false,
    canScan: (eventId: string) => byEvent.get(eventId)?.includes('event.scan') ?? false,
  };
}

/** One event (`GET /api/events/{event_id}`): 404 when the caller is neither owner nor staff. */
export const useEvent = (eventId: string) =>
  useQuery({
    queryKey: eventKeys.one(eventId),
    queryFn: () => call(eventsApi.GET('/api/events/{event_id}', { params: { path: { event_id: eventId } } })),
  });

/** `POST /api/events`: 201 with the event; 422 `errors` by field. */
export function useCreateEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EventInput) => call(eventsApi.POST('/api/events', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: EVENTS }),
  });
}

/** `PATCH /api/events/{event_id}` (owner): the fields given; 403 for staff, 422 by field. */
export function useUpdateEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, body }: { eventId: string; body: EventPatch }) =>
      call(eventsApi.PATCH('/api/events/{event_id}', { params: { path: { event_id: eventId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: EVENTS }),
  });
}

/** The event's staff (check-in role), oldest grant first (`GET .../staff`, owner; 403 for staff). */
export const useStaff = (eventId: string | undefined) =>
  useQuery({
    queryKey: [...EVENTS, 'staff', eventId],
    queryFn: () =>
      call(eventsApi.GET('/api/events/{event_id}/staff', { params: { path: { event_id: eventId! } } })),
    enabled: eventId !== undefined,
    retry: false,
  });

/** `POST .../staff {email}` (owner): gives the check-in role; 422 when no known user has that e-mail. */
export function useGrantStaff(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      call(
        eventsApi.POST('/api/events/{event_id}/staff', {
          params: { path: { event_id: eventId } },
          body: { email },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...EVENTS, 'staff', eventId] }),
  });
}

/** `DELETE .../staff/{user_id}` (owner): takes the check-in role back. */
export function useRevokeStaff(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      call(
        eventsApi.DELETE('/api/events/{event_id}/staff/{user_id}', {
          params: { path: { event_id: eventId, user_id: String(userId) } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...EVENTS, 'staff', eventId] }),
  });
}

/** `DELETE /api/events/{event_id}` (owner): the event with its invites, history, staff and devices. */
export function useDeleteEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) =>
      call(eventsApi.DELETE('/api/events/{event_id}', { params: { path: { event_id: eventId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: EVENTS }),
  });
}

/** The event's scanner devices, newest first (`GET .../devices`, owner), refreshed every 10 s. */
export const useDevices = (eventId: string, enabled = true) =>
  useQuery({
    queryKey: eventKeys.devices(eventId),
    queryFn: () =>
      call(eventsApi.GET('/api/events/{event_id}/devices', { params: { path: { event_id: eventId } } })),
    refetchInterval: 10_000,
    enabled,
  });

/** `POST .../devices {name}` (owner): the device with its one-time setup code and URL. */
export function useCreateDevice(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      call(
        eventsApi.POST('/api/events/{event_id}/devices', {
          params: { path: { event_id: eventId } },
          body: { name },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: eventKeys.devices(eventId) }),
  });
}

/** `POST .../devices/{device_id}/revoke` (owner): refused from its next request. */
export function useRevokeDevice(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deviceId: string) =>
      call(
        eventsApi.POST('/api/events/{event_id}/devices/{device_id}/revoke', {
          params: { path: { event_id: eventId, device_id: deviceId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: eventKeys.devices(eventId) }),
  });
}
