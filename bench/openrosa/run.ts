/**
 * `npm run bench:openrosa`: OpenRosa speed (issue 35, "Speed").
 *
 * Starts the collection service and the gateway as child processes on free loopback ports with
 * fresh databases (rate limits very high), registers a user, builds the 20-field form of
 * bench:collection (bench/collection/data.ts) and an app user for it. Then, in this run:
 *   (1) ingest: the JSON API (`POST /projects/{id}/submissions`, bearer token) against OpenRosa
 *       (`POST <server_url>/submission`, the app user's key in the path, multipart with the
 *       instance XML of the same answers, a new `meta/instanceID` each), --duration seconds per
 *       leg with --connections connections, legs in ABBA order (json, openrosa, openrosa, json) so
 *       the machine's drift weighs on both; submissions/s of each and PASS when OpenRosa keeps
 *       >= 50 % of the JSON rate.
 *   (2) form list: --forms published projects (default 100; the others have 3 fields each);
 *       `GET /api/v1/projects/{id}/formList`
 *       one request at a time over them (signed in, bearer), --samples requests after a warm-up
 *       pass: p50 and p95, PASS when p95 <= 50 ms; and the same through one app user's address.
 * Prints the figures and PASS/FAIL; stops the children and drops the databases. Exit 1 on errors.
 * Backing services: POSTGRES_URL, REDIS_URL, AMQP_URL, else the standard local ports.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { benchFields, submissionBody } from '../collection/data.ts';
import { startCollectionStack } from '../lib/collection-stack.ts';
import { load, percentile } from '../lib/load.ts';
import { runBench } from '../lib/run.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '50' },
    forms: { type: 'string', default: '100' },
    samples: { type: 'string', default: '500' },
  },
});

/** An answer as an XForm instance writes it (xforms-spec "Data Types"): lists space-separated. */
const lexical = (v: unknown): string => (Array.isArray(v) ? v.join(' ') : String(v));

/** The instance XML of the JSON body's answers for the form `fieldhouse-<projectId>`, version 1. */
function instanceXml(projectId: number, data: ReadonlyArray<{ value: unknown }>, instanceId: string): string {
  const answers = benchFields.map((f, i) => `<${f.name}>${lexical(data[i]!.value)}</${f.name}>`).join('');
  return (
    `<?xml version="1.0"?><data xmlns:jr="http://openrosa.org/javarosa" id="fieldhouse-${projectId}" version="1">` +
    `${answers}<meta><instanceID>${instanceId}</instanceID></meta></data>`
  );
}

const BOUNDARY = 'fieldhouse-bench-boundary';
const multipart = (xml: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="xml_submission_file"; filename="submission.xml"\r\n` +
  `Content-Type: text/xml\r\n\r\n${xml}\r\n--${BOUNDARY}--\r\n`;

async function main() {
  const stack = await startCollectionStack();
  const { gatewayUrl, token } = stack;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = stack.call<{ id: number; uuid: string; server_url: string }>;
  const makeProject = (name: string) => stack.makeProject(name, benchFields);

  // (1) ingest: JSON against OpenRosa, same form and answers
  const form = await makeProject('Ingest');
  const template = submissionBody(form.versionId, form.uuids);
  const json = JSON.stringify(template);
  const appUser = await call('POST', `/api/v1/projects/${form.projectId}/app-users`, {
    display_name: 'Bench',
  });
  const xmlOf = () => multipart(instanceXml(form.projectId, template.data, `uuid:${randomUUID()}`));
  const connections = Number(args.connections);
  const legs = {
    json: (duration: number) =>
      load({
        url: `${gatewayUrl}/api/v1/projects/${form.projectId}/submissions`,
        connections,
        duration,
        method: 'POST',
        headers,
        body: json,
        okStatus: 201,
      }),
    openrosa: (duration: number) =>
      load({
        url: `${appUser.server_url}/submission`,
        connections,
        duration,
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-openrosa-version': '1.0' },
        bodies: () => xmlOf(),
        okStatus: 201,
      }),
  };
  await legs.json(3); // warm-up
  await legs.openrosa(3);
  const seconds = Number(args.duration);
  const rates: Record<'json' | 'openrosa', number[]> = { json: [], openrosa: [] };
  let failures = 0;
  for (const name of ['json', 'openrosa', 'openrosa', 'json'] as const) {
    const r = await legs[name](seconds);
    failures += r.other + r.errors;
    rates[name].push(r.rps);
    console.log(
      `  ${name.padEnd(8)} ${r.rps.toFixed(0)} submissions/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ` +
        `${r.ok} created, ${r.other + r.errors} other/errors ${JSON.stringify(r.statusCodes)} ${r.errorSamples.join('; ')}`,
    );
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const ratio = mean(rates.openrosa) / mean(rates.json);
  console.log(
    `(1) ingest through the gateway, 20 fields, ${connections} connections, ${seconds} s per leg (ABBA): ` +
      `JSON ${mean(rates.json).toFixed(0)}/s, OpenRosa ${mean(rates.openrosa).toFixed(0)}/s = ${(ratio * 100).toFixed(0)} % ` +
      `(target >= 50 %) -> ${ratio >= 0.5 && failures === 0 ? 'PASS' : 'FAIL'}`,
  );

  // (2) the form list with --forms published forms
  const projects = [form.projectId];
  while (projects.length < Number(args.forms))
    projects.push((await makeProject(`Form ${projects.length}`)).projectId);
  const timeList = async (url: string, h: Record<string, string>) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: h });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200 || !text.includes('<formID>')) throw new Error(`formList ${url}: ${res.status}`);
    return ms;
  };
  const listUrl = (id: number) => `${gatewayUrl}/api/v1/projects/${id}/formList`;
  const signedIn = { authorization: `Bearer ${token}`, 'x-openrosa-version': '1.0' };
  for (const id of projects) await timeList(listUrl(id), signedIn); // warm-up: each XForm rendered once
  const samples: number[] = [];
  for (let i = 0; i < Number(args.samples); i++)
    samples.push(await timeList(listUrl(projects[i % projects.length]!), signedIn));
  const keyed: number[] = [];
  for (let i = 0; i < Math.min(100, Number(args.samples)); i++)
    keyed.push(await timeList(`${appUser.server_url}/formList`, { 'x-openrosa-version': '1.0' }));
  samples.sort((a, b) => a - b);
  keyed.sort((a, b) => a - b);
  const p95 = percentile(samples, 95);
  console.log(
    `(2) formList over ${projects.length} published forms, one request at a time, ${samples.length} requests: ` +
      `p50 ${percentile(samples, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target <= 50 ms); ` +
      `through an app user's address p95 ${percentile(keyed, 95).toFixed(1)} ms -> ${p95 <= 50 ? 'PASS' : 'FAIL'}`,
  );
  if (!(ratio >= 0.5 && failures === 0 && p95 <= 50)) process.exitCode = 1;
}

await runBench(main);
