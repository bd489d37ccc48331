import { SingleBar } from 'cli-progress';
import { counted } from '../shared/counted';
import { formatBytes, formatSeconds, type Output } from './output';

// The upload's progress: a live bar (bytes, rate, ETA) on a terminal; elsewhere one line per
// finished part. The rate counts only this run's bytes, so a resumed upload's ETA is honest.
// (`remaining`, not `eta`: cli-progress fills a token named eta itself, with its own estimate.)

export interface UploadProgress {
  addBytes(delta: number): void;
  partDone(partNumber: number): void;
  stop(): void;
}

export function uploadProgress(out: Output, totalBytes: number, alreadyBytes: number, partCount: number, partsAlreadyDone: number): UploadProgress {
  const started = Date.now();
  let sent = alreadyBytes;
  let partsDone = partsAlreadyDone;
  const rate = () => (sent - alreadyBytes) / Math.max(0.001, (Date.now() - started) / 1000);
  const eta = () => (rate() > 0 ? (totalBytes - sent) / rate() : Infinity);
  const payload = () => ({ sent: formatBytes(sent), size: formatBytes(totalBytes), rate: `${formatBytes(Math.round(rate()))}/s`, remaining: formatSeconds(eta()), parts: `${partsDone}/${partCount}` });

  if (!out.tty) {
    out.line(`Uploading ${formatBytes(totalBytes)} in ${counted(partCount, 'part')}${partsAlreadyDone ? ` (${partsAlreadyDone} already uploaded)` : ''}.`);
    // A line per part, but no more than one per percent: a 10,000-part upload logs 100 lines.
    let lastPercent = -1;
    return {
      addBytes: (delta) => {
        sent += delta;
      },
      partDone: (partNumber) => {
        partsDone++;
        const percent = Math.floor((100 * sent) / Math.max(1, totalBytes));
        if (percent === lastPercent && partsDone < partCount) return;
        lastPercent = percent;
        const p = payload();
        out.line(`Uploaded part ${partNumber} (${p.parts}, ${percent}%): ${p.sent} of ${p.size}, ${p.rate}, ETA ${p.remaining}`);
      },
      stop: () => undefined,
    };
  }
  const bar = new SingleBar({
    format: 'Uploading [{bar}] {percentage}% | {sent} / {size} | {rate} | ETA {remaining} | parts {parts}',
    stream: out.stream,
    hideCursor: true,
    barsize: 30,
    fps: 10,
  });
  bar.start(totalBytes, sent, payload());
  return {
    addBytes: (delta) => {
      sent += delta;
      bar.update(sent, payload());
    },
    partDone: () => {
      partsDone++;
      bar.update(sent, payload());
    },
    stop: () => {
      bar.update(sent, payload());
      bar.stop();
    },
  };
}
