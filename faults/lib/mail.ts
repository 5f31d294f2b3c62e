import type { SinkMessage } from '@fieldhouse/testkit';

/** Every message the sink has received so far. */
export async function sunkMessages(mailApiUrl: string): Promise<SinkMessage[]> {
  const res = await fetch(`${mailApiUrl}/messages`, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`SMTP sink: ${res.status}`);
  return (await res.json()) as SinkMessage[];
}

/** How many messages went to each of `addresses` (lower case). */
export async function deliveriesTo(mailApiUrl: string, addresses: string[]): Promise<Map<string, number>> {
  const wanted = new Set(addresses.map((a) => a.toLowerCase()));
  const counts = new Map<string, number>();
  for (const m of await sunkMessages(mailApiUrl))
    for (const to of m.envelope.to) {
      const a = to.toLowerCase();
      if (wanted.has(a)) counts.set(a, (counts.get(a) ?? 0) + 1);
    }
  return counts;
}
