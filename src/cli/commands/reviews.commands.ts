import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Option } from 'commander';
import { listTranscript } from '../../db/deliverables';
import { findProjectById } from '../../db/projects';
import { findReview, listOpenReviews, type TranscriptReview } from '../../db/transcript-reviews';
import type { ReviewStepResult } from '../../shared/review-contracts';
import { findCueProblem } from '../../shared/transcript-cues';
import { ReviewStepRefused, type ReviewStep } from '../../temporal/send-review-step';
import { workflowsOf } from '../workflow-gateway';
import { text, uuid } from '../arguments';
import type { CliContext } from '../cli-context';
import { formatTranscript, type ExportFormat } from '../transcript-file';
import { parseTranscript, TranscriptFileError } from '../../shared/transcript-file';
import { detectFormat } from '../../shared/transcript-format';
import type { RegisterCommand } from './index';
import { counted } from '../../shared/counted';

// The reviewers' console. Reading (the queue, the export) reads PostgreSQL; every change of a
// review is an update on its workflow `project/<id>/review`, whose activities write the
// database, so the workflow's history in the Temporal Web UI tells each review's story.

const defaultReviewer = () => process.env.USER || os.userInfo().username;

function age(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h >= 24 ? `${Math.floor(h / 24)}d ${h % 24}h` : h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(seconds % 60).padStart(2, '0')}s`;
}

async function requireReview(ctx: CliContext, projectId: string): Promise<TranscriptReview> {
  const review = await findReview(ctx.db(), projectId);
  if (!review) throw new Error(`project ${projectId} has no transcript review`);
  return review;
}

/** Refused here with the database's word for a prompt answer; the workflow checks again. */
async function sendStep(ctx: CliContext, review: TranscriptReview, expected: TranscriptReview['status'], step: ReviewStep): Promise<ReviewStepResult> {
  if (review.status !== expected) {
    throw new Error(
      `refused: the review is ${review.status}${review.reviewer ? ` (${review.reviewer})` : ''}; ${expected === 'requested' ? 'only a requested review can be claimed' : 'claim it before submitting a transcript'}`,
    );
  }
  try {
    return await workflowsOf(ctx).sendReviewStep(review, step);
  } catch (err) {
    if (err instanceof ReviewStepRefused) throw new Error(`refused: ${err.message}`);
    throw err;
  }
}

export const reviewsList: RegisterCommand = (program, ctx) =>
  program
    .command('reviews:list')
    .description('the transcript review queue: open reviews, oldest first, with their age')
    .action(async () => {
      const queue = await listOpenReviews(ctx.db());
      if (queue.length === 0) {
        ctx.print('no transcript reviews waiting');
        return;
      }
      for (const r of queue) {
        const due = Math.round((r.deadline_at.getTime() - r.requested_at.getTime()) / 1000) - r.age_seconds;
        const duration = r.duration_seconds === null ? '?' : `${Math.ceil(r.duration_seconds)} s`;
        ctx.print(
          `${r.project_id}  ${r.status.padEnd(9)}  age ${age(r.age_seconds).padEnd(8)}  ${duration.padEnd(7)}  ${due > 0 ? `due in ${age(due)}` : 'overdue'}${r.reviewer ? `  reviewer ${r.reviewer}` : ''}  "${r.project_name}"`,
        );
      }
    });

export const reviewsClaim: RegisterCommand = (program, ctx) =>
  program
    .command('reviews:claim')
    .description('take a requested transcript review (status in_review)')
    .argument('<project-id>', 'project id', uuid)
    .option('--reviewer <name>', 'who reviews it (default: your user name)', text)
    .action(async (projectId: string, options: { reviewer?: string }) => {
      const review = await requireReview(ctx, projectId);
      const reviewer = options.reviewer ?? defaultReviewer();
      const result = await sendStep(ctx, review, 'requested', { claim: { reviewer } });
      ctx.print(`${projectId}: ${result.status} (${result.reviewer}, ${result.at})`);
      ctx.print(`next: npm run console -- reviews:export ${projectId} --format vtt > transcript.vtt`);
    });

export const reviewsExport: RegisterCommand = (program, ctx) =>
  program
    .command('reviews:export')
    .description('print (or write) the machine transcript with its timings, to correct')
    .argument('<project-id>', 'project id', uuid)
    .addOption(new Option('--format <format>', 'file format').choices(['vtt', 'json']).makeOptionMandatory())
    .option('--out <file>', 'write to this file instead of printing')
    .action(async (projectId: string, options: { format: ExportFormat; out?: string }) => {
      await requireReview(ctx, projectId);
      const project = (await findProjectById(ctx.db(), projectId))!;
      const segments = await listTranscript(ctx.db(), projectId);
      if (project.phase !== 'dubbing' && project.phase !== 'completed' && segments.length === 0) {
        throw new Error(`project ${projectId} is not transcribed yet (phase ${project.phase}); export it once it is dubbing`);
      }
      const content = formatTranscript(options.format, projectId, project.source_duration_seconds, segments);
      if (!options.out) {
        ctx.print(content.replace(/\n$/, ''));
        return;
      }
      await writeFile(options.out, content);
      ctx.print(`wrote ${counted(segments.length, 'cue')} to ${options.out}`);
    });

export const reviewsSubmit: RegisterCommand = (program, ctx) =>
  program
    .command('reviews:submit')
    .description('submit the corrected transcript (.vtt, .srt or .json); verified, then the completed languages are re-dubbed free')
    .argument('<project-id>', 'project id', uuid)
    .requiredOption('--file <path>', 'the corrected transcript, as reviews:export wrote it')
    .option('--reviewer <name>', 'who reviewed it (default: your user name)', text)
    .action(async (projectId: string, options: { file: string; reviewer?: string }) => {
      const review = await requireReview(ctx, projectId);
      const content = await readFile(options.file, 'utf8');
      const project = await findProjectById(ctx.db(), projectId);
      let cues;
      try {
        cues = parseTranscript(detectFormat(options.file, content), content);
      } catch (err) {
        if (err instanceof TranscriptFileError) throw new Error(`${path.basename(options.file)}: ${err.message}; nothing was submitted`);
        throw err;
      }
      // Checked here first for a prompt answer; the workflow checks again before accepting.
      const problem = findCueProblem(cues, project?.source_duration_seconds ?? 0);
      if (problem) throw new Error(`${path.basename(options.file)}: ${problem}; nothing was submitted`);
      const reviewer = options.reviewer ?? review.reviewer ?? defaultReviewer();
      const result = await sendStep(ctx, review, 'in_review', { submit: { reviewer, cues } });
      ctx.print(`${projectId}: ${result.status} at ${result.at} (${counted(cues.length, 'cue')}, ${result.reviewer}); completed languages are re-dubbed from it at no charge`);
    });
