import { Writable } from 'node:stream';
import pino from 'pino';
import { createLogger } from '../../../src/logger';
import { prettyLine, prettyStream } from '../../../src/log-pretty';

// `make dev` in a terminal: the JSON lines pino writes become readable ones (LOG_FORMAT=pretty).

/** What the real logger writes as JSON, to feed the pretty printer exactly that. */
function jsonLines(log: (logger: ReturnType<typeof createLogger>) => void): string[] {
  const lines: string[] = [];
  const logger = createLogger('debug', { service: 'api' }, { write: (line: string) => void lines.push(line) } as pino.DestinationStream);
  log(logger);
  return lines;
}

describe('pretty log lines', () => {
  it('prints time, level, service, message, then the fields as key=value on one line', () => {
    const [line] = jsonLines((logger) => logger.info('request', { method: 'GET', path: '/v1/usage', status: 200, note: 'two words', tags: ['a', 'b'] }));
    const pretty = prettyLine(line!, false);
    expect(pretty).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} INFO  api request {2}method=GET path=\/v1\/usage status=200 note="two words" tags=\[ 'a', 'b' \]\n$/);
  });

  it("puts an error's message among the fields and its stack, indented, under the line", () => {
    const [line] = jsonLines((logger) => logger.error('step failed', { err: new Error('ffmpeg exited with 1') }));
    const pretty = prettyLine(line!, false);
    const [head, ...stack] = pretty.trimEnd().split('\n');
    expect(head).toMatch(/ERROR api step failed {2}err="ffmpeg exited with 1"$/);
    expect(stack[0]).toBe('    Error: ffmpeg exited with 1');
    expect(stack.length).toBeGreaterThan(1);
  });

  it('colours the level only when asked, and passes a line that is not JSON through unchanged', () => {
    const [line] = jsonLines((logger) => logger.warn('slow'));
    expect(prettyLine(line!, true)).toContain('\x1b[33mWARN \x1b[0m');
    expect(prettyLine(line!, false)).not.toContain('\x1b[');
    expect(prettyLine('plain text', true)).toBe('plain text\n');
  });

  it('is a sink pino can write to', () => {
    let written = '';
    const out = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        written += chunk.toString('utf8');
        done();
      },
    });
    const sink = prettyStream(out, false);
    for (const line of jsonLines((logger) => logger.debug('hello', { n: 1 }))) sink.write(line);
    expect(written).toMatch(/DEBUG api hello {2}n=1\n$/);
  });
});
