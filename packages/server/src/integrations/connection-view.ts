/** What callers see of a processor connection: never its signing secret. */
import type { ConnectionRow } from './connections.store.js';
import type { ProcessorName } from './processor.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentConnection(row: ConnectionRow, receiveUrl: string) {
  return {
    id: row.id,
    // Rows are only written with a name from PROCESSORS (integrations.service.ts).
    provider: row.provider as ProcessorName,
    name: row.name,
    receive_url: receiveUrl,
    created_at: row.created_at.toISOString(),
    last_event_at: iso(row.last_event_at),
    last_error: row.last_error,
    last_error_at: iso(row.last_error_at),
    events_received: Number(row.events_received),
  };
}

export type ConnectionView = ReturnType<typeof presentConnection>;
