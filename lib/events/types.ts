/** An event as a caller hands it in, and as it stands once recorded. */

/** An event to record. */
export interface NewEvent {
  /** Caller-chosen id for idempotent ingest; generated when absent. */
  id?: string;
  type: string;
  domain: string;
  entityId: string | null;
  payload?: Record<string, unknown>;
}

/** An event as recorded (or found recorded already). */
export interface RecordedEvent {
  id: string;
  type: string;
  domain: string;
  entityId: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
  /** False when an event with this id was already recorded (a retried ingest). */
  inserted: boolean;
}
