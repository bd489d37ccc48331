import { SingleBar } from 'cli-progress';
import { formatBytes, formatSeconds, type Output } from './output';

// The upload's progress: a live bar (bytes, rate, ETA) on a terminal; elsewhere one line per
// finished part. The rate counts only this run's bytes, so a resumed upload's ETA is honest.

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
  const payload = () => ({ sent: formatBytes(sent), size: formatBytes(totalBytes), rate: `${formatBytes(Math.round(rate()))}/s`, eta: formatSeconds(eta()), parts: `${partsDone}/${partCount}` });

  if (!out.tty) {
    out.line(`Uploading ${formatBytes(totalBytes)} in ${partCount} parts${partsAlreadyDone ? ` (${partsAlreadyDone} already uploaded)` : ''}.`);
    return {
      addBytes: (delta) => { sent += delta; },
      partDone: (partNumber) => {
        partsDone++;
        const p = payload();
        out.line(`Uploaded part ${partNumber} (${p.parts}): ${p.sent} of ${p.size}, ${p.rate}, ETA ${p.eta}`);
      },
      stop: () => undefined,
    };
  }
  const bar = new SingleBar({
    format: 'Uploading [{bar}] {percentage}% | {sent} / {size} | {rate} | ETA {eta} | parts {parts}',
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
