// Cursor pagination as an async iterator: `for await (const item of pages(...))` reads page after
// page, following `page.next_cursor`, and stops where the list ends (or where the caller breaks).

export interface CursorPage<T> {
  data: T[];
  page: { has_more: boolean; next_cursor: string | null };
}

export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data, page } = await fetchPage(cursor);
    yield* data;
    if (!page.has_more || !page.next_cursor) return;
    cursor = page.next_cursor;
  }
}
