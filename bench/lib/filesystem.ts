import { statfsSync } from 'node:fs';

// Which filesystem a benchmark's scratch dir (and so the local driver's storage) sits on. A
// regeneration copies the published WAVs and MP4 (docs/storage.md#reflinks): a reflink on XFS or
// btrfs, bytes copied by the kernel on ext4 or tmpfs. Its worker CPU on a 10-minute project
// depends on which, so the figures say it.

const NAMES: Record<number, string> = {
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x01021994: 'tmpfs',
  0x794c7630: 'overlayfs',
};

/** The filesystem's name, and whether the local driver's copies on it can be reflinks. */
export function filesystemOf(dir: string): string {
  const type = statfsSync(dir).type;
  const name = NAMES[type] ?? `type 0x${type.toString(16)}`;
  return `${name} (${name === 'xfs' || name === 'btrfs' ? 'copies can be reflinks' : 'copies are made by the kernel'})`;
}
