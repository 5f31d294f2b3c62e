import { PNG } from '@fieldhouse/testkit';
import type { BodyHints, Fixtures } from './requests.ts';

/** Calls the gateway as `token`; resolves with the JSON body, throws on an unexpected status. */
async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown> & { data: Record<string, unknown> };
}

/**
 * Creates, as `token`'s user (id `userId`), one of everything the documents have a path
 * parameter for, so generated requests reach past the "not found" checks: a workspace with a
 * published project, a published form version with fields, a submission, an analysis, an
 * export job, a second API token, an event with an invite, a poll with a comment.
 * Resolves with the valid values of each path parameter by name, and of body properties by
 * name (`other` is a second user, to add as a member or staff).
 */
export async function createFixtures(
  base: string,
  token: string,
  userId: number,
  other: { id: number; email: string },
  credentials: { email: string; password: string } = { email: 'nobody@example.test', password: 'x' },
): Promise<{ paths: Fixtures; deletable: Fixtures; hints: BodyHints; restore: () => Promise<void> }> {
  const as = (method: string, path: string, body?: unknown) => call(base, token, method, path, body);
  const ws = (await as('POST', '/api/v1/workspaces', { name: 'Fuzz workspace' })).data.id as number;
  const project = (await as('POST', `/api/v1/workspaces/${ws}/projects`, { name: 'Fuzz project' })).data
    .id as number;
  const version = (await as('POST', `/api/v1/projects/${project}/versions`, {})).data.id as number;
  const text = (
    await as('POST', `/api/v1/versions/${version}/fields`, { name: 'note', label: 'Note', type: 'text' })
  ).data;
  const choice = (
    await as('POST', `/api/v1/versions/${version}/fields`, {
      name: 'colour',
      label: 'Colour',
      type: 'select_one',
      choices: [
        { value: 'red', label: 'Red' },
        { value: 'blue', label: 'Blue' },
      ],
    })
  ).data;
  const photo = (
    await as('POST', `/api/v1/versions/${version}/fields`, { name: 'photo', label: 'Photo', type: 'photo' })
  ).data;
  const amount = (
    await as('POST', `/api/v1/versions/${version}/fields`, {
      name: 'amount',
      label: 'Amount',
      type: 'decimal',
    })
  ).data;
  await as('POST', `/api/v1/versions/${version}/publish`);
  const draft = (await as('POST', `/api/v1/projects/${project}/versions`, {})).data.id as number;
  const draftFields = (await as('GET', `/api/v1/versions/${draft}/fields`)).data as unknown as Array<{
    id: number;
  }>;
  await as('POST', `/api/v1/workspaces/${ws}/projects/${project}/publish`, { collect_access: 'members' });
  const created = (
    await as('POST', `/api/v1/projects/${project}/submissions`, {
      form_version_id: version,
      data: [
        { field_uuid: text.uuid, type: 'text', value: 'hello' },
        { field_uuid: choice.uuid, type: 'select_one', value: 'red' },
        { field_uuid: photo.uuid, type: 'photo', value: PNG.toString('base64') },
      ],
    })
  ).data as { id: number; data: Array<{ value: unknown }> };
  const submission = created.id;
  const photoUrl = (created.data.find((d) => (d.value as { url?: string })?.url)?.value as { url: string })
    .url;
  const analysis = (
    await as('POST', `/api/v1/projects/${project}/analyses`, {
      name: 'Fuzz analysis',
      charts: [{ title: 'Colours', kind: 'choice_counts', field: 'colour' }],
    })
  ).data.id as number;
  const job = (await as('POST', `/api/v1/projects/${project}/submissions/export`, { format: 'csv' })) as {
    job_id?: string;
    data?: { job_id?: string; id?: string };
  };
  const jobId = job.job_id ?? job.data?.job_id ?? job.data?.id;
  const spareToken = (await as('POST', '/api/v1/tokens', { name: 'spare' })) as {
    data?: { id?: number };
    id?: number;
  };
  const event = (await as('POST', '/api/events', {
    name: 'Fuzz event',
    start_date: '2030-10-01T20:00',
    location: 'Lille',
  })) as unknown as { id: string };
  const invite = (await as('POST', `/api/events/${event.id}/invites`, {
    nom: 'Guest',
    email: 'guest@example.test',
  })) as unknown as { id: string; code_unique: string };
  const device = (await as('POST', `/api/events/${event.id}/devices`, { name: 'Fuzz door' })) as unknown as {
    id: string;
  };
  const gate = (await as('POST', `/api/events/${event.id}/gates`, { name: 'Fuzz gate' })) as unknown as {
    id: string;
  };
  const spareGate = (await as('POST', `/api/events/${event.id}/gates`, {
    name: 'Spare gate',
  })) as unknown as {
    id: string;
  };
  const appUser = (await as('POST', `/api/v1/projects/${project}/app-users`, { display_name: 'Fuzz phone' }))
    .data as { id: number };
  const workspaceHook = (
    await as('POST', `/api/v1/workspaces/${ws}/webhooks`, {
      url: 'https://example.test/hook',
      events: ['submission.created'],
    })
  ).data as { id: string };
  const invitation = (
    await as('POST', `/api/v1/workspaces/${ws}/invitations`, {
      email: 'invitee@example.test',
      role: 'viewer',
    })
  ).data as { id: number };
  const workspacePing = (await as('POST', `/api/v1/workspaces/${ws}/webhooks/${workspaceHook.id}/ping`))
    .data as {
    id: string;
  };
  const eventHook = (await as('POST', `/api/events/${event.id}/webhooks`, {
    url: 'https://example.test/hook',
    events: ['invite.created'],
  })) as unknown as { id: string };
  const eventPing = (await as(
    'POST',
    `/api/events/${event.id}/webhooks/${eventHook.id}/ping`,
  )) as unknown as {
    id: string;
  };
  const poll = (
    await as('POST', '/api/polls', {
      title: 'Fuzz poll',
      sections: [{ title: 'Pick', options: [{ label: 'A' }, { label: 'B' }] }],
    })
  ).data as { id: string; sections: Array<{ id: string; options: Array<{ id: string }> }> };
  const section = poll.sections[0]!;
  const comment = (await as('POST', `/api/polls/${poll.id}/comment`, { content: 'first' })).data as {
    id: string;
  };
  const values: Record<string, Array<string | number | undefined>> = {
    workspace_id: [ws],
    project_id: [project],
    version_id: [version, draft],
    field_id: [text.id as number, choice.id as number, ...draftFields.map((f) => f.id)],
    submission_id: [submission],
    analysis_id: [analysis],
    index: [0, 1],
    job_id: [jobId],
    user_id: [userId],
    event_id: [event.id],
    invite_id: [invite.id],
    device_id: [device.id],
    webhook_id: [eventHook.id, workspaceHook.id],
    invitation_id: [invitation.id],
    delivery_id: [eventPing.id, workspacePing.id],
    poll_id: [poll.id],
    comment_id: [comment.id],
    photo_id: [photoUrl.split('/').pop()],
    section_id: [section.id],
    gate_id: [gate.id],
    app_user_id: [appUser.id],
    // The OpenRosa formID of the project (services/collection/src/domain/xform.ts, xformId).
    form_id: [`fieldhouse-${project}`],
    // The fuzzer signs in with a token, so it has no browser session: a well-formed unknown id (404).
    session_id: ['0123456789abcdef01234567'],
  };
  const asFixtures = (v: Record<string, unknown[]>): Fixtures =>
    Object.fromEntries(
      Object.entries(v).map(([k, ids]) => [k, ids.filter((x) => x !== undefined).map(String)]),
    );
  const paths = asFixtures(values);
  // One spare of each deletable thing, offered only to DELETE (the last path parameter), so
  // deletion paths run once for real while the fixtures above survive.
  const spareWs = (await as('POST', '/api/v1/workspaces', { name: 'Spare' })).data.id as number;
  const spareProject = (await as('POST', `/api/v1/workspaces/${ws}/projects`, { name: 'Spare' })).data.id;
  const spareField = (
    await as('POST', `/api/v1/versions/${draft}/fields`, { name: 'spare', label: 'Spare', type: 'text' })
  ).data.id;
  const spareAnalysis = (
    await as('POST', `/api/v1/projects/${project}/analyses`, {
      name: 'Spare',
      charts: [{ title: 'Colours', kind: 'choice_counts', field: 'colour' }],
    })
  ).data.id;
  const spareEvent = (
    (await as('POST', '/api/events', {
      name: 'Spare',
      start_date: '2030-10-01T20:00',
      location: 'X',
    })) as unknown as {
      id: string;
    }
  ).id;
  const spareInvite = (
    (await as('POST', `/api/events/${event.id}/invites`, {
      nom: 'Spare',
      email: 'spare@example.test',
    })) as unknown as {
      id: string;
    }
  ).id;
  const spareEventHook = (
    (await as('POST', `/api/events/${event.id}/webhooks`, {
      url: 'https://example.test/spare',
      events: ['invite.created'],
    })) as unknown as { id: string }
  ).id;
  const sparePoll = (
    await as('POST', '/api/polls', {
      title: 'Spare',
      sections: [{ title: 'S', options: [{ label: 'A' }, { label: 'B' }] }],
    })
  ).data.id;
  const spareComment = (await as('POST', `/api/polls/${poll.id}/comment`, { content: 'spare' })).data.id;
  const spareInvitee = (
    (await as('POST', `/api/polls/${poll.id}/invitees`, { emails: ['spare-invitee@example.test'] })).data as {
      added: Array<{ id: string }>;
    }
  ).added[0]!.id;
  const spareInvitation = (
    await as('POST', `/api/v1/workspaces/${ws}/invitations`, { email: 'spare@example.test', role: 'viewer' })
  ).data.id;
  const deletable = asFixtures({
    workspace_id: [spareWs],
    project_id: [spareProject],
    field_id: [spareField],
    analysis_id: [spareAnalysis],
    token_id: [spareToken.data?.id ?? spareToken.id],
    event_id: [spareEvent],
    invite_id: [spareInvite],
    webhook_id: [spareEventHook],
    invitation_id: [spareInvitation],
    poll_id: [sparePoll],
    comment_id: [spareComment],
    invitee_id: [spareInvitee],
    gate_id: [spareGate.id],
  });
  const hints: BodyHints = {
    form_version_id: [version, draft],
    field_uuid: [text.uuid, choice.uuid, photo.uuid, amount.uuid],
    value: ['hello', 'red', PNG.toString('base64')],
    field: ['note', 'colour'],
    user_id: [userId, other.id],
    email: [other.email, credentials.email],
    password: [credentials.password, 'another long password'],
    name: ['Fuzz Name'],
    data: [
      [
        { field_uuid: text.uuid, type: 'text', value: 'hi' },
        { field_uuid: choice.uuid, type: 'select_one', value: 'blue' },
      ],
      [{ field_uuid: photo.uuid, type: 'photo', value: PNG.toString('base64') }],
      [{ field_uuid: amount.uuid, type: 'decimal', value: 1e308 }],
      [{ field_uuid: amount.uuid, type: 'decimal', value: -1e308 }],
      [{ field_uuid: amount.uuid, type: 'decimal', value: 5e-324 }],
    ],
    charts: [
      [{ title: 'Colours', kind: 'choice_counts', field: 'colour' }],
      [{ title: 'Amounts', kind: 'histogram', field: 'amount', bins: 7 }],
      [{ title: 'Amounts', kind: 'histogram', field: 'amount', bins: 100 }],
    ],
    code_unique: [invite.code_unique],
    parent_id: [comment.id],
    collector_id: [userId],
    start_date: ['2030-10-01T20:00', '2031-01-01T00:00:00'],
    end_date: ['2030-10-02T20:00'],
    sections: [[{ title: 'Pick', options: [{ label: 'A' }, { label: 'B' }] }]],
    votes: [{ [section.id]: section.options[0]!.id }, { [section.id]: section.options[1]!.id }],
  };
  // Undoes what generated requests may have done to the fixtures' state (unpublished the
  // project, closed the poll), so later requests still reach the deeper paths.
  const restore = async () => {
    await call(base, token, 'POST', `/api/v1/workspaces/${ws}/projects/${project}/publish`, {
      collect_access: 'members',
    }).catch(() => undefined);
    await call(base, token, 'POST', `/api/polls/${poll.id}/reopen`).catch(() => undefined);
  };
  return { paths, deletable, hints, restore };
}
