import { writeFileSync } from 'node:fs';
import { spokenClip } from './media-fixtures';

// `node --import tsx test/helpers/spoken-clip.cli.ts <dir> <seconds> <text>`: writes <dir>/clip.mp4.
// For tests whose own process must run no engine (the API side of the worker-fleet test).
const [dir, seconds, text] = process.argv.slice(2);
void spokenClip(dir!, text!, Number(seconds)).then((clip) => writeFileSync(`${dir}/clip.mp4`, clip));
