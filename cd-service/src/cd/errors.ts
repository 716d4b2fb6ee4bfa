/** One thing wrong with a field of a CD or of its changes. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A CD, or a change to one, that breaks the CD's rules: nothing is written. */
export class InvalidCd extends Error {
  override name = 'InvalidCd';
  constructor(
    message: string,
    /** Each field that is wrong, and how. */
    readonly details: FieldProblem[],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The store cannot serve now but may soon (down, unreachable, out of room). The message says
 * what is down, never why, for it is meant for the client; the cause is for the log.
 */
export class StoreUnavailable extends Error {
  override name = 'StoreUnavailable';
  constructor(
    message: string,
    /** How long to wait before trying again. */
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The CD changed between the reading of its version and a write made on the condition of that
 * version, to one the condition excludes: nothing was changed. The store throws it for a
 * conditional write it refused.
 */
export class VersionMismatch extends Error {
  override name = 'VersionMismatch';
  constructor(readonly id: string) {
    super(`The CD ${id} changed meanwhile, to a version the write's condition excludes`);
  }
}
