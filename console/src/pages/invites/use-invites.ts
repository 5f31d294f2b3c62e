import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, eventsApi } from '../../api/client.ts';
import type { components } from '../../api/generated/events.ts';

export type Invite = components['schemas']['Invite'];
export type InviteType = Invite['type_invite'];
export type InviteInput = components['schemas']['InviteInput'];

/** The invitation types of area C (docs/events.md), in the order the forms offer them. */
export const INVITE_TYPES: readonly InviteType[] = [
  'standard',
  'vip',
  'presse',
  'intervenant',
  'partenaire',
  'staff',
];

/** The filters and page of the invitees table, as the URL keeps them. */
export interface InviteFilter {
  search: string;
  type_invite: InviteType | '';
  presence: 'true' | 'false' | '';
  page: number;
}

const invitesKey = (eventId: string) => ['events', 'invites', eventId] as const;

/** A page of the event's invitees (`GET .../invites`), 20 per page, ordered by name. */
export const useInvites = (eventId: string, f: InviteFilter) =>
  useQuery({
    queryKey: [...invitesKey(eventId), f],
    queryFn: () =>
      call(
        eventsApi.GET('/api/events/{event_id}/invites', {
          params: {
            path: { event_id: eventId },
            query: {
              page: f.page,
              per_page: 20,
              ...(f.search ? { search: f.search } : {}),
              ...(f.type_invite ? { type_invite: f.type_invite } : {}),
              ...(f.presence ? { presence: f.presence === 'true' } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Every change to invitees refreshes the table (and the attendance counters). */
function useInviteMutation<V, R>(eventId: string, mutationFn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: invitesKey(eventId) }),
  });
}

/** `POST .../invites` (owner): 201 `{id, nom, code_unique}`; the invitation e-mail is queued. */
export const useCreateInvite = (eventId: string) =>
  useInviteMutation(eventId, (body: InviteInput) =>
    call(eventsApi.POST('/api/events/{event_id}/invites', { params: { path: { event_id: eventId } }, body })),
  );

/** `PATCH .../invites/{invite_id}` (owner): name, e-mail, type, or `revoked`. */
export const useUpdateInvite = (eventId: string) =>
  useInviteMutation(
    eventId,
    ({ inviteId, patch }: { inviteId: string; patch: Partial<InviteInput> & { revoked?: boolean } }) =>
      call(
        eventsApi.PATCH('/api/events/{event_id}/invites/{invite_id}', {
          params: { path: { event_id: eventId, invite_id: inviteId } },
          body: patch,
        }),
      ),
  );

/** `POST .../invites/{invite_id}/resend` (owner): the invitation e-mail again; 409 when revoked. */
export const useResendInvitation = (eventId: string) =>
  useMutation({
    mutationFn: (inviteId: string) =>
      call(
        eventsApi.POST('/api/events/{event_id}/invites/{invite_id}/resend', {
          params: { path: { event_id: eventId, invite_id: inviteId } },
        }),
      ),
  });

/** `POST .../invites/import` with a CSV body (owner): one result per row (row 1 is the header). */
export const useImportInvites = (eventId: string) =>
  useInviteMutation(eventId, (run: { csv: string; preview: boolean; emails: 'now' | 'later' }) =>
    call(
      eventsApi.POST('/api/events/{event_id}/invites/import', {
        params: { path: { event_id: eventId }, query: { preview: run.preview, emails: run.emails } },
        body: run.csv,
        // Sent as is: the CSV text (the document also offers a multipart upload).
        bodySerializer: (b) => b as string,
        headers: { 'Content-Type': 'text/csv' },
      }),
    ),
  );

/** `POST .../invites/send-held` (owner): sends the invitation e-mails held back at import. */
export const useSendHeldInvitations = (eventId: string) =>
  useInviteMutation(eventId, () =>
    call(
      eventsApi.POST('/api/events/{event_id}/invites/send-held', { params: { path: { event_id: eventId } } }),
    ),
  );

/** The URL of the CSV import template in a language (the session cookie authorises the download). */
export const templateUrl = (eventId: string, lang: 'en' | 'fr') =>
  `/api/events/${eventId}/invites/import/template?lang=${lang}`;

/** The URL of an invite's QR code image (the session cookie authorises the download). */
export const qrUrl = (eventId: string, inviteId: string, format: 'png' | 'svg') =>
  `/api/events/${eventId}/invites/${inviteId}/qr.${format}`;

/**
 * `PUT .../invites/{invite_id}/presence {presence}` (owner and staff; spec 3): check an invitee
 * in from the list (`true`), or undo it (`false`); every call is kept in the history.
 */
export const useSetPresence = (eventId: string) =>
  useInviteMutation(eventId, ({ inviteId, presence }: { inviteId: string; presence: boolean }) =>
    call(
      eventsApi.PUT('/api/events/{event_id}/invites/{invite_id}/presence', {
        params: { path: { event_id: eventId, invite_id: inviteId } },
        body: { presence },
      }),
    ),
  );

/**
 * Whether the caller owns the event (`GET /api/events/access`, the events pages' query): the
 * owner adds, imports, edits, revokes and resends; staff check in and undo (issue 36).
 */
export function useIsOwner(eventId: string): boolean {
  const access = useQuery({
    queryKey: ['events', 'access'] as const,
    queryFn: () => call(eventsApi.GET('/api/events/access')),
  });
  return access.data?.events.some((e) => e.event_id === eventId && e.role === 'owner') ?? false;
}
