// Server-Sent Events framing (the WHATWG event-stream format): lines `field: value`, events ended by a blank line,
// `:` comments ignored. Fed text as it arrives; hands out complete events only.

export interface RawEvent {
  id: string | undefined;
  event: string;
  data: string;
  retry: number | undefined;
}

export class EventStreamParser {
  private buffer = '';

  /** Adds a chunk of text and returns the events it completed, in order. */
  push(chunk: string): RawEvent[] {
    this.buffer += chunk;
    if (this.buffer.includes('\r')) this.buffer = this.buffer.replace(/\r\n?/g, '\n');
    const events: RawEvent[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end !== -1; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event !== undefined) events.push(event);
    }
    return events;
  }
}

function parseBlock(block: string): RawEvent | undefined {
  const event: RawEvent = { id: undefined, event: 'message', data: '', retry: undefined };
  const data: string[] = [];
  let hasField = false;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    hasField = true;
    if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
  }
  if (!hasField) return undefined;
  event.data = data.join('\n');
  return event;
}
