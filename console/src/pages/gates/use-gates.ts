import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, eventsApi } from '../../api/client.ts';
import type { components } from '../../api/generated/events.ts';

export type Gate = components['schemas']['Gate'];
export type GateInput = components['schemas']['GateInput'];

const gatesKey = (eventId: string) => ['events', 'gates', eventId];

/** The event's gates by name (`GET .../gates`; owner, staff and scanner devices). */
export const useGates = (eventId: string, enabled = true) =>
  useQuery({
    queryKey: gatesKey(eventId),
    queryFn: () =>
      call(eventsApi.GET('/api/events/{event_id}/gates', { params: { path: { event_id: eventId } } })),
    enabled,
  });

/** Adds a gate (`POST .../gates`, owner) or changes one (`PATCH .../gates/{gate_id}`); 422 names the field. */
export function useSaveGate(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: GateInput }) =>
      id
        ? call(
            eventsApi.PATCH('/api/events/{event_id}/gates/{gate_id}', {
              params: { path: { event_id: eventId, gate_id: id } },
              body,
            }),
          )
        : call(
            eventsApi.POST('/api/events/{event_id}/gates', { params: { path: { event_id: eventId } }, body }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: gatesKey(eventId) }),
  });
}

/** Deletes a gate (`DELETE .../gates/{gate_id}`, owner). */
export function useDeleteGate(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (gate: Gate) =>
      call(
        eventsApi.DELETE('/api/events/{event_id}/gates/{gate_id}', {
          params: { path: { event_id: eventId, gate_id: gate.id } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: gatesKey(eventId) }),
  });
}
