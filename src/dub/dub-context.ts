import type { DubbingClient } from '../client';
import type { Credentials } from './credentials';
import type { Output } from './output';

/** What every command gets: where to print, and the API client built from the resolved credentials. */
export interface DubContext {
  out: Output;
  cwd: string;
  credentials(): Credentials;
  client(): DubbingClient;
  /** What a Ctrl-C from now on should tell the person (how to pick up where it stopped); `main` prints it. */
  interruptHint?(text: string): void;
}

/** A command line that makes sense to commander but not to the command (exit code 2, like commander's own refusals). */
export class UsageError extends Error {}

/** The dubbing itself ended without every language: exit code 3, after what did complete was downloaded. */
export class DubbingFailedError extends Error {}
