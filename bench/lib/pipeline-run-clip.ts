import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { detectCapabilities } from '../../src/engines/capabilities';
import { createDb } from '../../src/db/create-db';
import type { DubQuality } from '../../src/engines/alignment/dub-quality';
import { languageWorkflowId, projectWorkflowId } from '../../src/shared/workflow-ids';
import { cpuBetween, cpuMsOf, TreeMemorySampler } from './proc';
import { log, tail } from './services';
import { fmt } from './stats';
import { workflowSpans, type Span } from './temporal-history';
import { measureQuality } from './quality-figures';
import { VOICE_NAMES, type BenchVoice } from './speech-clip';
import { makeClip } from './pipeline-clip';
import { engineFloor } from './pipeline-engine-floor';
import { phaseTables, s, workerStageLines, type ClipResult } from './pipeline-report';

// One clip through the whole pipeline of bench/pipeline.bench.ts, on the services it started.

export interface Services {
  workerPid: number;
  workerLog: string;
  db: ReturnType<typeof createDb>;
  client: Client;
  targets: string[];
  capabilities: Awaited<ReturnType<typeof detectCapabilities>>;
  installedModes: Set<string>;
  speechDir: string;
  json: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<any>;
  text: (url: string) => Promise<string>;
  send: (url: string, body: Buffer) => Promise<{ status: number; etag: string; text: string }>;
}

/** One clip through the whole pipeline, then its quality and its engine floor (unless told not to). */
export async function runClip(services: Services, dir: string, seconds: number, options: { floor: boolean; quality: boolean; voice: BenchVoice; loudness?: string }): Promise<ClipResult> {
  const { db, json, targets } = services;
  const clip = await makeClip(dir, seconds, options.voice, path.join(services.speechDir, options.voice));
  const video = readFileSync(clip.file);
  log(
    `clip ${fmt(clip.duration, 2)} s, ${VOICE_NAMES[options.voice]}: ${clip.sentences.length} sentences (the script once through is ${fmt(clip.speechSeconds, 1)} s), ${fmt(video.length / 1024, 0)} KiB`,
  );

  // Create, upload the parts to their signed URLs (not timed as dubbing), then complete.
  const created = (
    await json(
      'POST',
      '/v1/dubbing/projects',
      {
        name: `Pipeline benchmark ${seconds} s`,
        source_locale: 'en_us',
        target_locales: targets,
        max_billable_seconds: Math.ceil(clip.duration) + 10,
        // One speaker, said so: the clip repeats the same synthesized sentences to fill its length,
        // identical waveforms no recording has, on which BIC clustering splits one voice into
        // dozens (112 on the 600 s clip). Finding speakers is measured on dialogs: the speakers figure.
        num_speakers: 1,
        ...(options.loudness ? { loudness: options.loudness } : {}),
        source: { type: 'upload', file_name: 'town-visit.mp4', size_bytes: video.length },
        publishing: { title: 'A visit to our town', description: 'A guide welcomes visitors and tells them about the town.' },
      },
      { 'idempotency-key': `bench-pipeline-${randomUUID()}` },
    )
  ).data;
  const projectId = created.id as string;
  const parts: { part_number: number; etag: string }[] = [];
  for (const part of created.transfer.parts as { part_number: number; url: string }[]) {
    const bytes = video.subarray((part.part_number - 1) * created.transfer.part_size_bytes, part.part_number * created.transfer.part_size_bytes);
    const res = await services.send(part.url, bytes);
    if (res.status !== 200) throw new Error(`PUT part ${part.part_number} → ${res.status}: ${res.text}`);
    parts.push({ part_number: part.part_number, etag: res.etag });
  }
  log(`project ${projectId}: uploaded ${parts.length} parts; completing`);

  const sampler = new TreeMemorySampler(services.workerPid, 200);
  sampler.start();
  const nodeCpuBefore = cpuMsOf(services.workerPid);
  const t0 = Date.now();
  await json('POST', `/v1/dubbing/projects/${projectId}/upload/complete`, { parts });
  let final: { status: string; completed_at: Date | null } | undefined;
  for (let i = 0; i < 20 * 1800; i++) {
    final = await db.selectFrom('projects').select(['status', 'completed_at']).where('id', '=', projectId).executeTakeFirstOrThrow();
    if (final.status === 'completed' || final.status === 'failed' || final.status === 'partially_completed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const memory = sampler.stop();
  const workerNodeCpuMs = cpuMsOf(services.workerPid) - nodeCpuBefore;
  if (final?.status !== 'completed') {
    const languages = await db.selectFrom('project_languages').select(['locale', 'status', 'failure_message']).where('project_id', '=', projectId).execute();
    throw new Error(`project ended ${final?.status}: ${JSON.stringify(languages)}; worker log:\n${tail(services.workerLog)}`);
  }
  const wallMs = final.completed_at!.getTime() - t0;
  const run = cpuBetween(sampler.cpu, t0, final.completed_at!.getTime());
  log(`completed: ${s(wallMs, 2)} s = ${fmt(wallMs / 1000 / clip.duration, 3)}× the clip`);

  const deliverables = await db.selectFrom('deliverables').select(['locale']).where('project_id', '=', projectId).execute();
  const qualities = await db.selectFrom('project_languages').select(['locale', 'dub_quality']).where('project_id', '=', projectId).orderBy('locale').execute();
  const transcript = await db.selectFrom('transcript_segments').select(['text']).where('project_id', '=', projectId).orderBy('position').execute();

  // Per-phase breakdown from the Temporal histories.
  const spans: Span[] = [...(await workflowSpans(services.client, projectWorkflowId(projectId)))];
  for (const locale of targets) spans.push(...(await workflowSpans(services.client, languageWorkflowId(projectId, locale))));
  const { phases, timeline } = phaseTables(spans, sampler, t0, final.completed_at!.getTime(), wallMs, targets);

  const languageVoices = await db.selectFrom('project_languages').select(['locale', 'voice']).where('project_id', '=', projectId).execute();
  // The floor, after the pipeline (the worker is idle now).
  if (options.floor) log('engine floor: the same engine work, called directly, one command after another');
  const floor = !options.floor
    ? []
    : await engineFloor(
        path.join(dir, 'floor'),
        clip.file,
        transcript.map((t) => t.text),
        targets.map((locale) => {
          const entry = services.capabilities.locales.find((l) => l.locale === locale)!;
          // The voice the project's language was really spoken with (its most natural one, Festival where there is one).
          const voice = languageVoices.find((l) => l.locale === locale)?.voice ?? entry.voice;
          return { locale, modes: entry.translationModes!, voice };
        }),
        clip.duration,
      );

  const stages = workerStageLines(services.workerLog).slice(-(targets.length + 1));
  const quality = !options.quality
    ? null
    : await measureQuality({
        db,
        projectId,
        voice: options.voice,
        clipSeconds: clip.duration,
        sentences: clip.sentences,
        targets,
        installedModes: services.installedModes,
        workerLog: readFileSync(services.workerLog, 'utf8'),
        downloadVtt: (locale) => services.text(`/v1/dubbing/projects/${projectId}/download?locale=${locale}&type=subtitles&format=vtt`),
      });

  return {
    projectId,
    voice: options.voice,
    quality,
    stages,
    seconds,
    clipSeconds: clip.duration,
    speechSeconds: clip.speechSeconds,
    videoKiB: video.length / 1024,
    parts: parts.length,
    wallMs,
    workerCpuMs: run.treeCpuMs,
    workerNodeCpuMs,
    otherCpuMs: run.machineBusyMs - run.treeCpuMs,
    machineBusyShare: run.machineBusyShare,
    memory,
    floor,
    qualities: qualities.map((q) => ({ locale: q.locale, quality: q.dub_quality as DubQuality | null })),
    segments: transcript.length,
    deliverables,
    phases,
    timeline,
  };
}
