/** Column types the table files share (types.ts re-exports them, so the table files need not import it). */
import type { ColumnType } from 'kysely';

/** A `timestamptz` column: read as a Date, written as a Date or ISO text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

export type Role = 'admin' | 'member';
export type Region = 'us' | 'eu';
export type AttributionModel = 'first_touch' | 'last_touch' | 'linear' | 'time_decay';
