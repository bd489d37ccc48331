import type { Project } from '../client';
import { counted } from '../shared/counted';
import { downloadDeliverables } from './download-deliverables';
import { DubbingFailedError, type DubContext } from './dub-context';
import { waitForProject } from './wait-for-project';

// `dub create --wait` and `dub wait <id>`: follow a project until it ends, then save what it made.
// Following never creates or charges anything, so an interrupted wait is simply run again.

/** Prints how a finished project ended, downloads what it made, and fails when a language did. */
async function finish(ctx: DubContext, project: Project, outDir: string): Promise<void> {
  ctx.out.line(`Project ${project.id} ${project.status}.`);
  for (const language of project.languages) {
    if (language.failure) ctx.out.line(`  ${language.locale}: failed (${language.failure.code}): ${language.failure.message}`);
  }
  if (project.failure) ctx.out.line(`  ${project.failure.code}: ${project.failure.message}`);
  const saved = await downloadDeliverables(ctx, project, outDir);
  if (project.status !== 'completed') {
    throw new DubbingFailedError(`The dubbing ended ${project.status}${saved.length ? `; the completed languages' ${counted(saved.length, 'file')} were saved` : ''}.`);
  }
  ctx.out.line(`${counted(saved.length, 'file')} in ${outDir}`);
}

/** @param again how else to pick the wait up after a Ctrl-C (e.g. "run the same command again"), besides `dub wait`. */
export async function followProject(ctx: DubContext, projectId: string, outDir: string, again?: string): Promise<void> {
  ctx.interruptHint?.(`Project ${projectId} goes on without you: follow it again with \`dub wait ${projectId}\`${again ? ` (or ${again})` : ''}.`);
  ctx.out.line(`Waiting for project ${projectId}.`);
  await finish(ctx, await waitForProject(ctx, projectId), outDir);
}
