import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/create-db';
import type { BlobStore } from '../../src/storage/blob-store';
import { findLedgerViolations } from '../helpers/ledger-invariant';
import { ffmpeg, ffprobe } from '../helpers/media-fixtures';
import { checkTtml } from '../helpers/ttml-checks';

// What every chaos scenario must leave behind, whatever fault it injected: checked on the
// database and the blob store the scenario's stack used (its own PostgreSQL, for one of them).

const FINAL = ['completed', 'partially_completed', 'failed'];

export interface ChaosOutcome {
  projectId: string;
  status: string;
  /** locale → status, failure code */
  languages: Record<string, { status: string; failureCode: string | null }>;
}

/** Every invariant of the chaos suite; returns what each project ended as, for the scenario's own checks. */
export async function expectChaosInvariants(db: Db, blobStore: BlobStore, workspaceIds: string[], projectIds: string[]): Promise<ChaosOutcome[]> {
  const outcomes: ChaosOutcome[] = [];
  for (const projectId of projectIds) outcomes.push(await expectProjectSettled(db, blobStore, projectId));
  await expectBalancesAddUp(db, workspaceIds);
  return outcomes;
}

/** Every project ended (a failed one with a reason), its money adds up, its completed languages decode. */
async function expectProjectSettled(db: Db, blobStore: BlobStore, projectId: string): Promise<ChaosOutcome> {
  const project = await db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
  expect({ projectId, status: FINAL.includes(project.status) ? 'final' : project.status }).toEqual({ projectId, status: 'final' });
  const languages = await db.selectFrom('project_languages').selectAll().where('project_id', '=', projectId).execute();
  if (project.status === 'failed') expect(project.failure_code ?? languages.find((l) => l.failure_code)?.failure_code).toBeTruthy();
  for (const language of languages) {
    expect(['completed', 'failed']).toContain(language.status);
    if (language.status === 'failed') expect(language.failure_code).toBeTruthy();
  }
  await expectLedgerAddsUp(
    db,
    projectId,
    languages.map((l) => ({ locale: l.locale, status: l.status, attempt: l.attempt })),
  );
  for (const language of languages) {
    const files = await db.selectFrom('deliverables').selectAll().where('project_id', '=', projectId).where('locale', '=', language.locale).execute();
    if (language.status === 'failed') {
      // Nothing half-published: a failed language lists no file.
      expect({ locale: language.locale, files: files.length }).toEqual({ locale: language.locale, files: 0 });
      continue;
    }
    // The mix and its two stems are WAVs (docs/audio.md#stems).
    expect(files.map((f) => f.format).sort()).toEqual(['mp3', 'mp4', 'png', 'srt', 'ttml', 'vtt', 'wav', 'wav', 'wav']);
    for (const file of files) await expectDecodes(blobStore, file.storage_key, file.format);
  }
  return {
    projectId,
    status: project.status,
    languages: Object.fromEntries(languages.map((l) => [l.locale, { status: l.status, failureCode: l.failure_code }])),
  };
}

/**
 * Per project, the ledger kinds add up: the hold is fully captured or released, each reference
 * once (the unique index guarantees it; this proves the steps did not dodge it with new names),
 * at most one capture, one refund per failed language attempt, and refunds never exceed captures.
 */
async function expectLedgerAddsUp(db: Db, projectId: string, languages: { locale: string; status: string; attempt: number }[]): Promise<void> {
  const entries = await db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute();
  const references = entries.map((e) => e.reference);
  expect(new Set(references).size).toBe(references.length);
  const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((total, e) => total + Number(e.amount), 0);
  const holds = entries.filter((e) => e.kind === 'hold');
  expect(holds.length).toBeLessThanOrEqual(1);
  if (holds.length === 1) expect(sum('capture') + sum('release')).toBe(sum('hold'));
  expect(entries.filter((e) => e.kind === 'capture').length).toBeLessThanOrEqual(1);
  expect(sum('refund')).toBeLessThanOrEqual(sum('capture'));
  for (const language of languages) {
    const refunds = references.filter((r) => r === `${projectId}:${language.locale}:refund` || r.startsWith(`${projectId}:${language.locale}:refund:`));
    // A failed language was refunded once; a completed one never (a single attempt here).
    if (sum('capture') > 0) expect({ locale: language.locale, refunds: refunds.length }).toEqual({ locale: language.locale, refunds: language.status === 'failed' ? 1 : 0 });
  }
}

/** Each workspace's balance equals the sum of its ledger entries, and none is negative. */
async function expectBalancesAddUp(db: Db, workspaceIds: string[]): Promise<void> {
  expect(await findLedgerViolations(db, workspaceIds)).toEqual([]);
  const balances = await db.selectFrom('credit_balances').select(['workspace_id', 'granted', 'captured', 'reserved']).where('workspace_id', 'in', workspaceIds).execute();
  expect(balances).toHaveLength(workspaceIds.length);
  for (const b of balances) {
    expect(Number(b.granted) - Number(b.captured) - Number(b.reserved)).toBeGreaterThanOrEqual(0);
    expect(Number(b.captured)).toBeGreaterThanOrEqual(0);
    expect(Number(b.reserved)).toBeGreaterThanOrEqual(0);
  }
}

/** The stored file is what its format says: audio and images decode, captions parse. */
async function expectDecodes(blobStore: BlobStore, key: string, format: string): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chaos-check-'));
  try {
    const file = await blobStore.toLocalFile(key, dir);
    if (format === 'srt' || format === 'vtt') {
      const text = readFileSync(file, 'utf8');
      if (format === 'vtt') expect(text.startsWith('WEBVTT')).toBe(true);
      // At least one cue: a time range then its text.
      expect(text).toMatch(/\d\d:\d\d:\d\d[.,]\d{3} --> \d\d:\d\d:\d\d[.,]\d{3}\r?\n\S/);
      return;
    }
    if (format === 'ttml') {
      // Well-formed and held to the IMSC 1.1 Text profile, with at least one cue (docs/captions.md#ttml).
      const check = checkTtml(readFileSync(file, 'utf8'));
      expect(check.problems).toEqual([]);
      expect(check.paragraphs.length).toBeGreaterThan(0);
      return;
    }
    const probe = await ffprobe(file);
    if (format === 'png') {
      expect(probe.streams.some((s) => s.codec_type === 'video')).toBe(true);
      return;
    }
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(probe.durationSeconds).toBeGreaterThan(0);
    // Decoding every sample to nowhere fails on a truncated or corrupt stream.
    const sink = path.join(dir, 'decoded.wav');
    await ffmpeg(['-xerror', '-i', file, '-f', 'wav', sink]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
