/**
 * A typed reader of what a middleware put on ctx.state for the handlers after it
 * (docs/design.md#requests). It names that middleware and fails loudly on a route that does not
 * run it, where a cast would hand the handler `undefined` under the type.
 */
export function stateReader<T>(key: string, setBy: string): (ctx: { state: object }) => T {
  return (ctx) => {
    const value = (ctx.state as Record<string, unknown>)[key];
    if (value === undefined) throw new Error(`ctx.state.${key} is unset: this route does not run ${setBy} before its handler`);
    return value as T;
  };
}
