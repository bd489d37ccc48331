/**
 * The last JSON body this process rendered for each project, under the ETag it was sent with
 * (docs/design.md#conditional-get). The ETag is the whole rule: the same ETag means the same body,
 * the promise a 304 already makes, so a remembered body is served only after the request's own
 * primary-key read has given that ETag again. Nothing here expires or is invalidated: a change
 * bumps view_version, the ETag no longer matches, and the body is rendered afresh.
 *
 * Bounded by the bodies' total length in characters (about their bytes: the JSON is mostly
 * ASCII), least recently served first out: a poller's project stays, a project nobody reads any
 * more makes room.
 */
export class ProjectBodies {
  private readonly bodies = new Map<string, { etag: string; body: string }>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** Whether a body of this project (and transfer choice) is remembered, whatever its ETag. */
  has(projectId: string, includeTransfer: boolean): boolean {
    return this.bodies.has(key(projectId, includeTransfer));
  }

  /** The body remembered under exactly this ETag, or undefined. */
  get(projectId: string, includeTransfer: boolean, etag: string): string | undefined {
    const k = key(projectId, includeTransfer);
    const entry = this.bodies.get(k);
    if (entry?.etag !== etag) return undefined;
    this.bodies.delete(k); // re-inserted: the Map's order is the order of last use
    this.bodies.set(k, entry);
    return entry.body;
  }

  set(projectId: string, includeTransfer: boolean, etag: string, body: string): void {
    const k = key(projectId, includeTransfer);
    this.forget(k);
    if (body.length > this.maxChars) return;
    this.bodies.set(k, { etag, body });
    this.chars += body.length;
    for (const oldest of this.bodies.keys()) {
      if (this.chars <= this.maxChars) break;
      this.forget(oldest);
    }
  }

  get size(): { entries: number; chars: number } {
    return { entries: this.bodies.size, chars: this.chars };
  }

  private forget(k: string): void {
    const entry = this.bodies.get(k);
    if (!entry) return;
    this.bodies.delete(k);
    this.chars -= entry.body.length;
  }
}

const key = (projectId: string, includeTransfer: boolean) => `${projectId}/${includeTransfer ? 't' : 'n'}`;
