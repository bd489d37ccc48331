import { makeTempDir, removeTempDir, spokenClip } from './media-fixtures';
import { swappableWorker, type SwappableWorker } from './swappable-worker';
import { startTestApi, type TestApi } from './test-api';

/**
 * The setup of a test file that dubs one short spoken clip on the real API, with a real worker
 * whose engines each test chooses (`suite.worker.use(...)`); the worker is stopped after each
 * test, `beforeWorkerStop` first (e.g. to release a gated engine).
 */
export interface DubbingSuite {
  /** A temp dir of the file's own, removed after its tests. */
  dir: string;
  api: TestApi;
  clip: Buffer;
  worker: SwappableWorker;
}

export function dubbingSuite(prefix: string, sentence: string, options: { beforeWorkerStop?: () => void; seconds?: number } = {}): DubbingSuite {
  const suite: DubbingSuite = {
    dir: '',
    api: undefined as unknown as TestApi,
    clip: Buffer.alloc(0),
    worker: swappableWorker(() => suite.api),
  };
  beforeAll(async () => {
    suite.dir = makeTempDir(prefix);
    suite.clip = await spokenClip(suite.dir, sentence, options.seconds ?? 4);
    suite.api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  }, 60_000);
  afterEach(async () => {
    options.beforeWorkerStop?.();
    await suite.worker.stop();
  });
  afterAll(async () => {
    await suite.api?.close();
    if (suite.dir) removeTempDir(suite.dir);
  });
  return suite;
}
