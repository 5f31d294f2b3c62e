import type { IncomingMessage } from 'node:http';

/** One Server-Sent Event: its `event` name (`message` when unnamed) and its `data` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Calls `onEvent` with each Server-Sent Event of a response, in order (comments such as
 * heartbeats and the `retry:` field are skipped; lines end with `\n`, as every server of this
 * project writes them). Sets the response's encoding to UTF-8 and
 * consumes it. Written here rather than taken from eventsource-parser: that package exports a
 * `source` condition pointing at its TypeScript sources, which the project's
 * `--conditions=source` would make Node load from node_modules (refused).
 */
export function onServerSentEvents(res: IncomingMessage, onEvent: (event: ServerSentEvent) => void): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) onEvent({ event, data: data.join('\n') });
    }
  });
}
